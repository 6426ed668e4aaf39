import { useEffect, useState } from 'react';

/**
 * Runs `callback` in a task of its own after the browser's next paint (a frame, then a timer), so work
 * that can wait does not lengthen the task that puts a screen up. Returns the cancel.
 */
export function afterNextPaint(callback: () => void): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const frame = requestAnimationFrame(() => {
    timer = setTimeout(callback);
  });
  return () => {
    cancelAnimationFrame(frame);
    clearTimeout(timer);
  };
}

/** False on the first render, true once the screen it is part of has been painted. */
export function usePainted(): boolean {
  const [painted, setPainted] = useState(false);
  useEffect(() => afterNextPaint(() => setPainted(true)), []);
  return painted;
}
