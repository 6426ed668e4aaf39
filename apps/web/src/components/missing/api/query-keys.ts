import type { MapViewport } from '@cats/contracts';

/** Query keys of missing-cat data (issue 26): the near list (feed banner), Explore's pins and per cat. */
export const missingKeys = {
  all: ['missing'] as const,
  /** Every near list (invalidated together); one entry per `limit` asked for. */
  near: ['missing', 'near'] as const,
  nearUpTo: (limit: number) => ['missing', 'near', limit] as const,
  maps: ['missing', 'map'] as const,
  map: (v: MapViewport) => ['missing', 'map', v] as const,
  alert: (catId: string) => ['missing', 'alert', catId] as const,
  reports: (catId: string) => ['missing', 'reports', catId] as const,
};
