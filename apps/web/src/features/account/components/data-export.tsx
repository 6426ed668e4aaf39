import { useState } from 'react';
import { Button } from '../../../components/button.tsx';
import { isDemoDisabledError } from '../../../components/message-modal.tsx';
import { translate } from '../../../i18n/i18n-store.ts';
import { Message, useLanguage, useTranslate } from '../../../i18n/message.tsx';
import { formatMoment } from '../../../lib/relative-time.ts';
import { downloadDataExport, useDataExport, useStartDataExport } from '../api/data-export.ts';
import {
  errorText,
  FormStatusMessage,
  LoadErrorText,
  SettingsCard,
  type FormStatus,
} from './settings-card.tsx';

/** '12.3 MB', or kilobytes for a small export (a new account's is a few KB). */
function fileSize(bytes: number): string {
  if (bytes < 1_000_000)
    return translate(
      { id: 'settings.data.kilobytes', defaultMessage: '{size, number} KB' },
      { size: Math.max(1, Math.round(bytes / 1000)) },
    );
  return translate(
    { id: 'settings.data.megabytes', defaultMessage: '{size, number, ::.0} MB' },
    { size: bytes / 1_000_000 },
  );
}

/**
 * Settings' 'Your data' (issue 24): a zip of the profile, posts with their exact locations, comments,
 * likes, groups and every photo. It is prepared on the server (polled while running) and kept a day.
 * The demo account may not export: the server refuses and the demo modal says so.
 */
export function DataExport({ onDemoRefused }: { onDemoRefused: () => void }) {
  const current = useDataExport();
  const start = useStartDataExport();
  const [status, setStatus] = useState<FormStatus>(null);
  const [downloading, setDownloading] = useState(false);
  const data = current.data;
  const t = useTranslate();
  useLanguage(); // the date is written in the reader's language: follow it

  const prepare = () => {
    setStatus(null);
    start.mutate(undefined, {
      onError: (err) =>
        isDemoDisabledError(err) ? onDemoRefused() : setStatus({ kind: 'error', text: errorText(err) }),
    });
  };
  const download = async () => {
    setStatus(null);
    setDownloading(true);
    try {
      await downloadDataExport();
    } catch (err) {
      setStatus({ kind: 'error', text: errorText(err) });
      // The export may have expired meanwhile: show what the server has now.
      void current.refetch();
    } finally {
      setDownloading(false);
    }
  };

  return (
    <SettingsCard
      title={t({ id: 'settings.data.title', defaultMessage: 'Your data' })}
      description={t({
        id: 'settings.data.description',
        defaultMessage:
          'Download a copy of your profile, your pictures with their exact locations, your comments, likes and groups, your cats, missing-cat alerts and reports, and the cat suggestions and merges you made.',
      })}
    >
      {() => (
        <>
          {current.isPending ? (
            <p className="muted">
              <Message id="settings.loading" defaultMessage="Loading..." />
            </p>
          ) : current.isError ? (
            <LoadErrorText error={current.error} />
          ) : data?.status === 'running' ? (
            <p className="data-export__running" role="status">
              <span className="data-export__spinner" aria-hidden="true" />
              <Message id="settings.data.preparing" defaultMessage="Preparing your download…" />
            </p>
          ) : (
            <>
              {data?.status === 'failed' && (
                <p className="notice notice--error" role="alert">
                  {data.message ??
                    t({
                      id: 'settings.data.failed',
                      defaultMessage: 'Your data could not be prepared. Please try again.',
                    })}
                </p>
              )}
              <div className="data-export__actions">
                {data?.status === 'ready' && data.sizeBytes !== null && (
                  <Button onClick={() => void download()} disabled={downloading}>
                    {downloading ? (
                      <Message id="settings.data.downloading" defaultMessage="Downloading…" />
                    ) : (
                      <Message
                        id="settings.data.download"
                        defaultMessage="Download ({size})"
                        values={{ size: fileSize(data.sizeBytes) }}
                      />
                    )}
                  </Button>
                )}
                <Button
                  variant={data?.status === 'ready' ? 'secondary' : 'primary'}
                  onClick={prepare}
                  disabled={start.isPending}
                >
                  {data?.status === 'ready' ? (
                    <Message id="settings.data.prepareNew" defaultMessage="Prepare a new download" />
                  ) : (
                    <Message id="settings.data.downloadMine" defaultMessage="Download my data" />
                  )}
                </Button>
              </div>
              {data?.status === 'ready' && data.expiresAt && (
                <p className="muted data-export__expiry">
                  <Message
                    id="settings.data.availableUntil"
                    defaultMessage="Available until <time>{date}</time>"
                    values={{
                      date: formatMoment(data.expiresAt),
                      time: (chunks) => <time dateTime={data.expiresAt ?? undefined}>{chunks}</time>,
                    }}
                  />
                </p>
              )}
            </>
          )}
          <FormStatusMessage status={status} />
        </>
      )}
    </SettingsCard>
  );
}
