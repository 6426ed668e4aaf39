/** Query keys owned by the shared post UI. */
export const commentKeys = {
  all: ['comments'] as const,
  post: (postId: string) => ['comments', postId] as const,
};

export const likerKeys = {
  all: ['likers'] as const,
  post: (postId: string) => ['likers', postId] as const,
};
