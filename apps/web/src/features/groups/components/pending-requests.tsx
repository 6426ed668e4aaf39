import type { OwnJoinRequest } from '@cats/contracts';
import { Button } from '../../../components/button.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { useCancelRequest } from '../api/cancel-request.ts';
import { groupErrorMessage } from '../api/errors.ts';
import { useOwnRequests } from '../api/get-own-requests.ts';
import { Message, useTranslate } from '../../../i18n/message.tsx';

/**
 * The caller's requests to join that wait for an owner's answer (issue 28, point 7): without them,
 * someone who asked to join saw nothing happen. Shown only while there are some.
 */
export function PendingRequests({ onResult }: { onResult: (message: string) => void }) {
  const requests = useOwnRequests();
  const list = requests.data?.requests ?? [];
  if (list.length === 0) return null;
  return (
    <section className="groups-pending" aria-labelledby="groups-pending-title">
      <h2 id="groups-pending-title">
        <Message id="groups.pending.title" defaultMessage="Your requests to join" />
      </h2>
      <p className="muted">
        <Message
          id="groups.pending.text"
          defaultMessage="The owner of each group will accept or decline your request."
        />
      </p>
      <ul className="groups-manage__list">
        {list.map((r) => (
          <PendingRequest key={r.group._id} request={r} onResult={onResult} />
        ))}
      </ul>
    </section>
  );
}

function PendingRequest({
  request,
  onResult,
}: {
  request: OwnJoinRequest;
  onResult: (message: string) => void;
}) {
  const cancel = useCancelRequest();
  const t = useTranslate();
  const { group } = request;
  return (
    <li className="groups-pending__item">
      <span className="groups-manage__name">{group.groupName}</span>
      <Button
        variant="secondary"
        size="sm"
        disabled={cancel.isPending}
        aria-label={t(
          { id: 'groups.pending.cancelGroup', defaultMessage: 'Cancel request to join {group}' },
          { group: group.groupName },
        )}
        onClick={() =>
          // The promise, not mutate's callbacks: the row unmounts as soon as the list drops the
          // request, and TanStack Query skips the callbacks of an unmounted caller.
          cancel.mutateAsync(group._id).then(
            ({ message }) => onResult(message),
            // A request answered or withdrawn meanwhile: the server says so in a sentence of its own.
            (err: unknown) =>
              onResult(err instanceof ApiError && err.status === 404 ? err.message : groupErrorMessage(err)),
          )
        }
      >
        <Message id="groups.pending.cancel" defaultMessage="Cancel request" />
      </Button>
    </li>
  );
}
