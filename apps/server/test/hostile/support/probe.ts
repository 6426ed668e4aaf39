import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import type { TestApp } from '../../build-app.ts';
import { changedTables, mediaFiles, rowCounts } from './snapshot.ts';

interface State {
  rows: Record<string, number>;
  media: number;
}

/** Statuses seen per route, for the summary each suite prints. */
export class Tally {
  private readonly byRoute = new Map<string, Map<number, number>>();
  readonly problems: string[] = [];
  cases = 0;

  record(route: string, status: number): void {
    this.cases += 1;
    const statuses = this.byRoute.get(route) ?? new Map<number, number>();
    statuses.set(status, (statuses.get(status) ?? 0) + 1);
    this.byRoute.set(route, statuses);
  }

  statuses(): Record<string, number> {
    const all: Record<string, number> = {};
    for (const statuses of this.byRoute.values()) {
      for (const [status, n] of statuses) all[status] = (all[status] ?? 0) + n;
    }
    return all;
  }

  summary(title: string): string {
    const lines = [
      `${title}: ${this.cases} cases over ${this.byRoute.size} routes, statuses ${JSON.stringify(this.statuses())}`,
    ];
    for (const [route, statuses] of [...this.byRoute].sort(([a], [b]) => a.localeCompare(b))) {
      const cells = [...statuses].sort(([a], [b]) => a - b).map(([s, n]) => `${s}x${n}`);
      lines.push(`  ${route.padEnd(52)} ${cells.join(' ')}`);
    }
    return lines.join('\n');
  }
}

/** What every hostile answer must be: below 500, and a refusal is JSON {message}. */
export function answerProblems(res: LightMyRequestResponse): string[] {
  const problems: string[] = [];
  if (res.statusCode >= 500) problems.push(`status ${res.statusCode}: ${res.body.slice(0, 200)}`);
  if (res.statusCode >= 400) {
    const type = String(res.headers['content-type'] ?? '');
    if (!type.startsWith('application/json')) problems.push(`refusal with content-type ${type}`);
    else {
      try {
        const body = res.json() as { message?: unknown };
        if (typeof body.message !== 'string' || body.message.length === 0) {
          problems.push(`refusal without a message: ${res.body.slice(0, 200)}`);
        }
      } catch {
        problems.push(`refusal that is not JSON: ${res.body.slice(0, 200)}`);
      }
    }
  }
  return problems;
}

/**
 * Sends hostile requests and checks each answer, and that a refused request wrote nothing: no row
 * count and no media file count moves. Problems are collected (not thrown) so one run lists them all.
 */
export class Prober {
  private last: State | undefined;

  constructor(
    private readonly t: TestApp,
    readonly tally: Tally,
  ) {}

  private async state(): Promise<State> {
    return { rows: await rowCounts(this.t.db), media: mediaFiles(this.t.mediaDir).length };
  }

  async send(
    route: string,
    label: string,
    request: InjectOptions,
    opts: { mayWriteOnRefusal?: string[]; settle?: () => Promise<void> } = {},
  ): Promise<LightMyRequestResponse> {
    const before = this.last ?? (await this.state());
    const res = await this.t.app.inject(request);
    // Work the request started after answering (a data export) finishes before the next comparison.
    await opts.settle?.();
    const after = await this.state();
    this.last = after;
    this.tally.record(route, res.statusCode);
    const where = `${route} [${label}]`;
    for (const p of answerProblems(res)) this.tally.problems.push(`${where}: ${p}`);
    if (res.statusCode >= 400) {
      const changed = changedTables(before.rows, after.rows).filter(
        (table) => !(opts.mayWriteOnRefusal ?? []).includes(table),
      );
      if (changed.length > 0)
        this.tally.problems.push(`${where}: refused (${res.statusCode}) but changed ${changed.join(', ')}`);
      if (after.media !== before.media) {
        this.tally.problems.push(
          `${where}: refused (${res.statusCode}) but media files went ${before.media} -> ${after.media}`,
        );
      }
    }
    return res;
  }

  /** Something outside the prober changed the database: start comparing from now. */
  reset(): void {
    this.last = undefined;
  }
}

/** Long, unusual and hostile strings for every text field. */
export const NASTY_STRINGS: [string, string][] = [
  ['empty', ''],
  ['spaces', '   '],
  ['100k chars', 'a'.repeat(100_000)],
  ['10k emoji', '🐱'.repeat(10_000)],
  ['RTL override', '\u202Egpj.exe\u202C cat'],
  ['RTL Arabic', 'قطة الحي'],
  ['zero-width', 'c\u200Ba\u200Dt\uFEFF'],
  ['emoji ZWJ family', '👩‍👩‍👧‍👦🏳️‍🌈🇬🇧'],
  ['combining zalgo', 'c̷̡̛̟a̶̧͇t̸̰̀'.repeat(20)],
  ['NUL', '\u0000'],
  ['NUL inside', 'cat\u0000cat'],
  ['lone surrogate', 'cat\uD800cat'],
  ['control chars', '\u0001\u0007\u001b[31m\u007f'],
  ['line separators', 'a\u2028b\u2029c\r\n'],
  ['HTML script', '<script>alert(1)</script>'],
  ['HTML img onerror', '<img src=x onerror=alert(document.cookie)>'],
  ['SQL tautology', "' OR '1'='1' --"],
  ['SQL drop', "'; DROP TABLE users; --"],
  ['SQL union', "x' UNION SELECT password_hash FROM users --"],
  ['SQL comment', '1/**/OR/**/1=1'],
  ['format string', '%s%s%n%x'],
  ['template', '{{7*7}}${7*7}<%= 7*7 %>'],
  ['path traversal', '../../../../etc/passwd'],
  ['homoglyph', 'dеmо'],
  ['JSON in string', '{"__proto__":{"admin":true}}'],
  ['word null', 'null'],
  ['number-ish', '-1e309'],
];

/** Values of the wrong type for any field. */
export const WRONG_TYPES: [string, unknown][] = [
  ['number', 12345],
  ['negative float', -1.5],
  ['huge number', 1e308],
  ['boolean', true],
  ['null', null],
  ['array', ['a', 'b']],
  ['empty array', []],
  ['object', { nested: { deeper: 'x' } }],
  ['empty object', {}],
];

/** Ids that are not ids, or not ours: each must be refused 4xx (usually 404), never 5xx. */
export const HOSTILE_IDS: [string, string][] = [
  ['not a uuid', 'not-a-uuid'],
  ['zero', '0'],
  ['negative', '-1'],
  ['huge number', '99999999999999999999999'],
  ['float', '1.5'],
  ['nil uuid', '00000000-0000-0000-0000-000000000000'],
  ['unknown uuid', '3f1c2b9a-1111-4222-8333-444455556666'],
  ['uuid with g', '00000000-0000-0000-0000-00000000000g'],
  ['uuid with braces', '%7B3f1c2b9a-1111-4222-8333-444455556666%7D'],
  ['dot dot', '..'],
  ['encoded dot dot', '%2e%2e'],
  ['encoded traversal', '..%2F..%2F..%2Fetc%2Fpasswd'],
  ['double-encoded traversal', '%252e%252e%252fetc%252fpasswd'],
  ['encoded dots and slash', '%2e%2e%2f%2e%2e%2fapi%2fhealth'],
  ['backslash traversal', '..%5C..%5Cwindows%5Cwin.ini'],
  ['encoded NUL', 'abc%00def'],
  ['invalid percent', '%E0%A4%A'],
  ['bare percent', '%'],
  ['invalid UTF-8', '%FF%FE'],
  ['encoded emoji', encodeURIComponent('🐱')],
  ['encoded RTL', encodeURIComponent('\u202Eabc')],
  ['encoded zero-width', encodeURIComponent('\u200B')],
  ['SQL', encodeURIComponent("1' OR '1'='1")],
  ['HTML', encodeURIComponent('<script>alert(1)</script>')],
  ['proto', '__proto__'],
  ['constructor', 'constructor'],
  ['199 chars', 'a'.repeat(199)],
  ['over the param limit', 'a'.repeat(500)],
];
