/** Query keys of cat data (issue 26), shared by the cat page and the post menus' 'Which cat is this?'. */
export const catKeys = {
  all: ['cats'] as const,
  detail: (catId: string) => ['cats', 'detail', catId] as const,
  sightings: (catId: string) => ['cats', 'sightings', catId] as const,
  map: (catId: string) => ['cats', 'map', catId] as const,
  search: (q: string) => ['cats', 'search', q] as const,
};
