import { beforeEach } from 'vitest';
import { describeOpenPages } from './browser.ts';

/**
 * A failing end-to-end test says what the browser was doing: CI's log is often all there is to go on
 * (a timeout alone does not tell a request that failed from one never sent).
 */
beforeEach(({ task, onTestFailed }) => {
  onTestFailed(async () => {
    console.error(
      `What the browser was doing when '${task.name}' failed:\n${await describeOpenPages(task.name)}`,
    );
  });
});
