import { useEffect, useState } from 'react';
import { Button } from '../../../components/button.tsx';
import { AlertIcon, CheckIcon, InfoIcon } from '../../../components/icons.tsx';
import { isDemoDisabledError } from '../../../components/message-modal.tsx';
import { translate } from '../../../i18n/i18n-store.ts';
import { Message, useTranslate } from '../../../i18n/message.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import {
  currentSubscription,
  pushSupported,
  saveSubscription,
  subscribeThisDevice,
  unsubscribeThisDevice,
} from '../../../lib/web-push.ts';
import { errorText, FormStatusMessage, SettingsCard, type FormStatus } from './settings-card.tsx';
import './push-notifications.css';

/** Where this device stands: push on, off, blocked by the browser, impossible here, or being checked. */
type DeviceState = 'checking' | 'on' | 'off' | 'blocked' | 'unsupported';

async function deviceState(): Promise<DeviceState> {
  if (!pushSupported()) return 'unsupported';
  if (Notification.permission === 'denied') return 'blocked';
  const subscription = await currentSubscription();
  return subscription && Notification.permission === 'granted' ? 'on' : 'off';
}

function failureText(err: unknown): string {
  if (err instanceof ApiError) return errorText(err);
  // pushManager.subscribe() failed: the browser's push service could not be reached, or refused.
  return translate({
    id: 'settings.push.failed',
    defaultMessage: 'This browser could not turn on push notifications. Please try again later.',
  });
}

interface Props {
  /** The demo account: shown, but it cannot turn push on. */
  disabled: boolean;
  onDemoRefused: () => void;
}

/**
 * Settings' 'Push notifications' (issue 25): notifications on this device while the app is closed, by
 * Web Push. Each browser is turned on and off by itself; which kinds are pushed follows the
 * notification preferences. A device that is on sends its subscription again when the card opens,
 * so the server's copy follows the browser's (a push service may have renewed it).
 */
export function PushNotifications({ disabled, onDemoRefused }: Props) {
  const [state, setState] = useState<DeviceState>('checking');
  const [busy, setBusy] = useState(false);
  const [status, setStatus] = useState<FormStatus>(null);
  const t = useTranslate();

  useEffect(() => {
    let cancelled = false;
    deviceState()
      .catch((): DeviceState => 'off')
      .then(async (found) => {
        if (cancelled) return;
        setState(found);
        const subscription = found === 'on' && !disabled ? await currentSubscription() : null;
        // Best effort: the card already says what the browser knows.
        if (subscription) await saveSubscription(subscription).catch(() => undefined);
      });
    return () => {
      cancelled = true;
    };
  }, [disabled]);

  const turnOn = async () => {
    setStatus(null);
    setBusy(true);
    try {
      const permission = await Notification.requestPermission();
      if (permission === 'denied') {
        setState('blocked');
        return;
      }
      if (permission !== 'granted') {
        setStatus({
          kind: 'error',
          text: t({
            id: 'settings.push.notAllowed',
            defaultMessage: 'Notifications were not allowed. Choose Turn on again and then Allow.',
          }),
        });
        return;
      }
      await subscribeThisDevice();
      setState('on');
    } catch (err) {
      if (isDemoDisabledError(err)) onDemoRefused();
      else setStatus({ kind: 'error', text: failureText(err) });
    } finally {
      setBusy(false);
    }
  };

  const turnOff = async () => {
    setStatus(null);
    setBusy(true);
    try {
      await unsubscribeThisDevice();
    } catch (err) {
      // The browser has dropped its subscription either way (unsubscribeThisDevice).
      setStatus({ kind: 'error', text: failureText(err) });
    } finally {
      setState(await deviceState().catch((): DeviceState => 'off'));
      setBusy(false);
    }
  };

  return (
    <SettingsCard
      title={t({ id: 'settings.push.title', defaultMessage: 'Push notifications' })}
      description={t({
        id: 'settings.push.description',
        defaultMessage:
          'Get notified on this device when someone likes or comments on your pictures, or answers you in a group, even while Neighbourhood Cats is closed. Your notification settings choose which kinds are sent.',
      })}
    >
      {() => (
        <>
          {/* A live region: turning push on or off, or the browser's answer, is read out. */}
          <div role="status" className="push-notifications__state">
            {disabled ? (
              <p className="notice notice--info">
                <InfoIcon size={20} />
                <span>
                  <Message
                    id="settings.push.demo"
                    defaultMessage="Push notifications are not available for the demo account."
                  />
                </span>
              </p>
            ) : state === 'checking' ? (
              <p className="muted">
                <Message id="settings.push.checking" defaultMessage="Checking this device…" />
              </p>
            ) : state === 'unsupported' ? (
              <p className="notice notice--info">
                <InfoIcon size={20} />
                <span>
                  <Message
                    id="settings.push.unsupported"
                    defaultMessage="This browser cannot receive push notifications. On an iPhone or iPad, add Neighbourhood Cats to your Home Screen and open it from there."
                  />
                </span>
              </p>
            ) : state === 'blocked' ? (
              <p className="notice notice--info">
                <AlertIcon size={20} />
                <span>
                  <Message
                    id="settings.push.blocked"
                    defaultMessage="Notifications are blocked for this site in your browser. Allow them in the site settings (the icon beside the address), then reload this page."
                  />
                </span>
              </p>
            ) : state === 'on' ? (
              <p className="push-notifications__on">
                <CheckIcon size={20} />
                <span>
                  <Message id="settings.push.on" defaultMessage="On for this device." />
                </span>
              </p>
            ) : (
              <p className="muted">
                <Message id="settings.push.off" defaultMessage="Off for this device." />
              </p>
            )}
          </div>
          {(disabled || state === 'on' || state === 'off') && (
            <Button
              variant={state === 'on' ? 'secondary' : 'primary'}
              disabled={disabled}
              // Not disabled while working: a disabled button would drop the keyboard focus.
              aria-disabled={busy || undefined}
              onClick={() => {
                if (!busy) void (state === 'on' ? turnOff() : turnOn());
              }}
            >
              {state === 'on' ? (
                busy ? (
                  <Message id="settings.push.turningOff" defaultMessage="Turning off…" />
                ) : (
                  <Message id="settings.push.turnOff" defaultMessage="Turn off" />
                )
              ) : busy ? (
                <Message id="settings.push.turningOn" defaultMessage="Turning on…" />
              ) : (
                <Message id="settings.push.turnOn" defaultMessage="Turn on push notifications" />
              )}
            </Button>
          )}
          <FormStatusMessage status={status} />
        </>
      )}
    </SettingsCard>
  );
}
