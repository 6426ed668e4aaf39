import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * A test order that starts the named long files first. Vitest runs the longest files first when its
 * results cache (node_modules/.vite) knows their durations, but a fresh clone, as CI is, has no cache:
 * files then go project by project, larger files first, and a long file that starts late runs alone
 * at the end with the other core idle. CI's PostgreSQL stage lost a minute that way: the cell probe
 * (~115 s, half of it waiting on the database) started when the other files were nearly done
 * (docs/performance.md, "CI"). Started first, it runs beside the rest.
 *
 * `longFirst` holds path endings ('test/privacy/cell-probe.test.ts'); the other files keep Vitest's
 * own order, and `sequence.groupOrder` still comes first.
 */
export function slowFirstSequencer(
  longFirst: readonly string[],
): new (...args: ConstructorParameters<typeof BaseSequencer>) => BaseSequencer {
  return class SlowFirstSequencer extends BaseSequencer {
    override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
      const sorted = await super.sort(files);
      const rank = (file: TestSpecification) => {
        const at = longFirst.findIndex((ending) => file.moduleId.endsWith(ending));
        return at === -1 ? longFirst.length : at;
      };
      const group = (file: TestSpecification) => file.project.config.sequence.groupOrder;
      return sorted
        .map((file, index) => ({ file, index }))
        .sort((a, b) => group(a.file) - group(b.file) || rank(a.file) - rank(b.file) || a.index - b.index)
        .map(({ file }) => file);
    }
  };
}
