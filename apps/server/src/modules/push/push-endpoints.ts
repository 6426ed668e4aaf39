/**
 * Which push endpoints the server will POST to. A subscription's endpoint is a URL the browser got from
 * its push service, but the server only sees what a client sends: without a check, anyone signed in
 * could make the server send requests to any address, internal ones included (server-side request
 * forgery). So endpoints must be https on the push services of the browsers people use, or on a host
 * the operator lists in PUSH_ENDPOINT_HOSTS (a push service of their own, a test double).
 */

/** The push services of Chrome and its relatives (FCM), Firefox, Edge and Safari. */
const BROWSER_PUSH_SERVICES = [
  '*.googleapis.com',
  '*.google.com',
  '*.push.services.mozilla.com',
  '*.notify.windows.com',
  '*.push.apple.com',
];

interface HostRule {
  /** Lower-case host name, or the domain a `*.` rule covers. */
  host: string;
  wildcard: boolean;
  /** Only this port, when the rule names one. */
  port: string | null;
}

function parseRule(rule: string): HostRule {
  const trimmed = rule.trim().toLowerCase();
  const wildcard = trimmed.startsWith('*.');
  const [host = '', port = null] = (wildcard ? trimmed.slice(2) : trimmed).split(':');
  return { host, wildcard, port };
}

function matches(rule: HostRule, url: URL): boolean {
  const host = url.hostname.toLowerCase();
  if (rule.port !== null && url.port !== rule.port) return false;
  return rule.wildcard ? host.endsWith(`.${rule.host}`) : host === rule.host;
}

export interface PushEndpointPolicy {
  /** Whether the server may send pushes to this endpoint. */
  allows(endpoint: string): boolean;
}

/** `extraHosts`: PUSH_ENDPOINT_HOSTS, comma-separated `host`, `host:port` or `*.domain`. */
export function pushEndpointPolicy(extraHosts: string | undefined): PushEndpointPolicy {
  const browsers = BROWSER_PUSH_SERVICES.map(parseRule);
  const extra = (extraHosts ?? '')
    .split(',')
    .filter((rule) => rule.trim() !== '')
    .map(parseRule);
  return {
    allows(endpoint) {
      let url: URL;
      try {
        url = new URL(endpoint);
      } catch {
        return false;
      }
      if (url.username || url.password) return false;
      if (extra.some((rule) => matches(rule, url))) {
        return url.protocol === 'https:' || url.protocol === 'http:';
      }
      return url.protocol === 'https:' && browsers.some((rule) => matches(rule, url));
    },
  };
}
