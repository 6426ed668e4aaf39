import { useState } from 'react';
import { Button } from '../../../components/button.tsx';
import { isDemoDisabledError } from '../../../components/message-modal.tsx';
import { downloadDataExport, useDataExport, useStartDataExport } from '../api/data-export.ts';
import { errorText, FormStatusMessage, SettingsCard, type FormStatus } from './settings-card.tsx';

/** '12.3 MB', or kilobytes for a small export (a new account's is a few KB). */
function fileSize(bytes: number): string {
  if (bytes < 1_000_000) return `${Math.max(1, Math.round(bytes / 1000))} KB`;
  return `${(bytes / 1_000_000).toFixed(1)} MB`;
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
      title="Your data"
      description="Download a copy of your profile, your pictures with their exact locations, your comments, likes and groups, your cats, missing-cat alerts and reports, and the cat suggestions and merges you made."
    >
      {() => (
        <>
          {current.isPending ? (
            <p className="muted">Loading...</p>
          ) : current.isError ? (
            <p className="notice notice--error">Error: {errorText(current.error)}</p>
          ) : data?.status === 'running' ? (
            <p className="data-export__running" role="status">
              <span className="data-export__spinner" aria-hidden="true" />
              Preparing your download…
            </p>
          ) : (
            <>
              {data?.status === 'failed' && (
                <p className="notice notice--error" role="alert">
                  {data.message ?? 'Your data could not be prepared. Please try again.'}
                </p>
              )}
              <div className="data-export__actions">
                {data?.status === 'ready' && data.sizeBytes !== null && (
                  <Button onClick={() => void download()} disabled={downloading}>
                    {downloading ? 'Downloading…' : `Download (${fileSize(data.sizeBytes)})`}
                  </Button>
                )}
                <Button
                  variant={data?.status === 'ready' ? 'secondary' : 'primary'}
                  onClick={prepare}
                  disabled={start.isPending}
                >
                  {data?.status === 'ready' ? 'Prepare a new download' : 'Download my data'}
                </Button>
              </div>
              {data?.status === 'ready' && data.expiresAt && (
                <p className="muted data-export__expiry">
                  Available until{' '}
                  <time dateTime={data.expiresAt}>{new Date(data.expiresAt).toLocaleString()}</time>
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
