/**
 * A separate, tiny entry that runs before the app's bundle has arrived: it starts restoring a
 * remembered session (and, on /feed, loading the first page) so those round trips overlap the
 * download of the code (lib/early-requests.ts).
 */
import { initialLanguage } from './i18n/languages.ts';
import { startEarlyRequests } from './lib/early-requests.ts';
import { getPersist } from './lib/persist-flag.ts';

startEarlyRequests(window.location.pathname, getPersist(), initialLanguage());
