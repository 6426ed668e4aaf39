export * from './errors.ts';
export * from './common.ts';
export * from './auth.ts';
export * from './users.ts';
export * from './posts.ts';
export * from './groups.ts';
export * from './map.ts';
export * from './data-export.ts';
