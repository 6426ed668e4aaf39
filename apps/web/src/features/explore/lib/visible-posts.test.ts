import { describe, expect, it } from 'vitest';
import type { MapCluster, MapMarker } from '@cats/contracts';
import { visiblePosts } from './visible-posts.ts';

const bounds = (west: number, south: number, east: number, north: number) => ({
  getWest: () => west,
  getSouth: () => south,
  getEast: () => east,
  getNorth: () => north,
});

const marker = (id: string, latitude: number, longitude: number, day: number): MapMarker => ({
  _id: id,
  latitude,
  longitude,
  previewUrl: `/media/posts/${id}/64.webp`,
  catName: null,
  username: 'ann',
  createdAt: new Date(Date.UTC(2026, 0, day)).toISOString(),
});
const cluster = (id: string, latitude: number, longitude: number, count: number): MapCluster => ({
  id,
  latitude,
  longitude,
  count,
  previewUrl: '',
  expansionZoom: 12,
});

describe('visiblePosts', () => {
  it('lists the markers inside the visible bounds only, newest first', () => {
    const markers = [marker('old', 36.5, -4.5, 1), marker('off', 40, -4.5, 9), marker('new', 36.6, -4.4, 5)];
    const result = visiblePosts(markers, [], bounds(-5, 36, -4, 37));
    expect(result.markers.map((m) => m._id)).toEqual(['new', 'old']);
    expect(result.clustered).toBe(0);
  });

  it('counts the posts of the clusters on screen, not those off it', () => {
    const clusters = [cluster('in', 36.5, -4.5, 7), cluster('out', 50, 10, 30)];
    expect(visiblePosts([], clusters, bounds(-5, 36, -4, 37))).toEqual({ markers: [], clustered: 7 });
  });

  it('finds markers when the world wraps past 180 degrees', () => {
    const markers = [marker('fiji', -17.7, 178.4, 1), marker('samoa', -13.8, -171.8, 2)];
    const result = visiblePosts(markers, [], bounds(170, -20, 190, -10));
    expect(result.markers.map((m) => m._id)).toEqual(['samoa', 'fiji']);
  });

  it('shows nothing before the map knows its bounds', () => {
    expect(visiblePosts([marker('a', 0, 0, 1)], [], null)).toEqual({ markers: [], clustered: 0 });
  });
});
