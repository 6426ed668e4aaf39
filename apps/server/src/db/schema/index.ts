export * from './users.ts';
export * from './posts.ts';
export * from './groups.ts';
export * from './explore.ts';
export * from './exports.ts';
