import { ApiError } from '../lib/api-client.ts';
import { Message } from '../i18n/message.tsx';
import { Button } from './button.tsx';
import './load-error.css';

interface LoadErrorProps {
  /** What the failed request threw. */
  error: unknown;
  /** Asks again: the query's refetch. */
  onRetry: () => void;
  className?: string;
}

/** The server was never reached (offline, refused, timed out): nothing it said to show. */
function isConnectionFailure(error: unknown): boolean {
  return error instanceof ApiError && error.isNetworkError;
}

/**
 * A list or page that could not load (spec section 2, Feed and profiles): "Can't connect to server"
 * when the server was not reached, 'Error: {message}' when it answered with an error; never both.
 * Retry asks again.
 */
export function LoadError({ error, onRetry, className }: LoadErrorProps) {
  return (
    <div className={['load-error', className].filter(Boolean).join(' ')}>
      {isConnectionFailure(error) ? (
        <p className="load-error__message" role="alert">
          <Message id="common.loadError.offline" defaultMessage="Can't connect to server" />
        </p>
      ) : (
        <p className="load-error__message" role="alert">
          {error instanceof Error ? (
            <Message
              id="common.loadError.message"
              defaultMessage="Error: {message}"
              values={{ message: error.message }}
            />
          ) : (
            <Message id="common.loadError.unknown" defaultMessage="Error: Request failed" />
          )}
        </p>
      )}
      <Button variant="secondary" onClick={onRetry}>
        <Message id="common.retry" defaultMessage="Retry" />
      </Button>
    </div>
  );
}
