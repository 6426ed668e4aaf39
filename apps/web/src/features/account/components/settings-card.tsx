import { useId, type ReactNode } from 'react';
import { ApiError, noServerResponse } from '../../../lib/api-client.ts';
import { AlertIcon, CheckIcon } from '../../../components/icons.tsx';
import { translate } from '../../../i18n/i18n-store.ts';
import { Message } from '../../../i18n/message.tsx';

/** One settings topic: a card with its heading, which also names the form inside (aria-labelledby). */
export function SettingsCard({
  title,
  description,
  danger,
  children,
}: {
  title: string;
  description?: ReactNode;
  danger?: boolean;
  children: (headingId: string) => ReactNode;
}) {
  const headingId = useId();
  return (
    <section
      className={`settings-card card${danger ? ' settings-card--danger' : ''}`}
      aria-labelledby={headingId}
    >
      <h2 id={headingId}>{title}</h2>
      {description && <p className="settings-card__description">{description}</p>}
      {children(headingId)}
    </section>
  );
}

export type FormStatus = { kind: 'success' | 'error'; text: string } | null;

/** A form's outcome: success is a polite status, failure an alert. */
export function FormStatusMessage({ status }: { status: FormStatus }) {
  return (
    <div role="status" aria-live="polite" className="settings-card__status">
      {status && (
        <p className={`notice notice--${status.kind}`}>
          {status.kind === 'success' ? <CheckIcon size={20} /> : <AlertIcon size={20} />}
          <span>{status.text}</span>
        </p>
      )}
    </div>
  );
}

/** What to tell the person when a settings request fails: the server's own message, or no response. */
export function errorText(err: unknown): string {
  if (err instanceof ApiError) return err.status === null ? noServerResponse() : err.message;
  return translate({ id: 'settings.requestFailed', defaultMessage: 'Request failed' });
}

/** A list or form that could not load: 'Error: ' and what went wrong. */
export function LoadErrorText({ error }: { error: unknown }) {
  return (
    <p className="notice notice--error">
      <Message id="settings.error" defaultMessage="Error: {message}" values={{ message: errorText(error) }} />
    </p>
  );
}
