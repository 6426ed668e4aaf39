import { useOnline } from '../lib/use-online.ts';
import { showToast } from './toast.tsx';
import { translate } from '../i18n/i18n-store.ts';
import { Message } from '../i18n/message.tsx';
import './offline-bar.css';

/**
 * Issue 28: a thin bar under the top bar on every page while the browser has no network, so that the
 * pages shown from the offline cache are not taken for fresh ones. It sits in the sticky header, never
 * over the phone's bottom tab bar. The live region is always in the page so that the sentence is read
 * out when it appears.
 */
export function OfflineBar() {
  const online = useOnline();
  return (
    <div className="offline-bar" role="status">
      {!online && (
        <p className="offline-bar__text">
          <Message
            id="common.offline.bar"
            defaultMessage="You are offline. You are seeing the pages saved on this device."
          />
        </p>
      )}
    </div>
  );
}

/** A change (like, comment, hide...) that could not reach the server: said, not only logged. */
export function showOfflineWriteToast(): void {
  showToast({
    message: translate({
      id: 'common.offline.notSaved',
      defaultMessage: 'You are offline, so this was not saved. Try again when you are back online.',
    }),
  });
}
