/**
 * The token of a mailed link (issue 29). It travels in the URL's fragment (#token=…): browsers send
 * the fragment to no server, so it stays out of access logs and of the Referer of anything the page
 * loads. Read once, then the caller drops it from the address bar and the history.
 */
export function tokenFromHash(hash: string): string | null {
  const token = new URLSearchParams(hash.replace(/^#/, '')).get('token');
  return token && /^[A-Za-z0-9_-]{43}$/.test(token) ? token : null;
}
