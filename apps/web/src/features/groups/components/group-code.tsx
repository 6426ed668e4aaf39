import { useEffect, useState } from 'react';
import type { GroupDetail } from '@cats/contracts';
import { Button } from '../../../components/button.tsx';
import { CheckIcon } from '../../../components/icons.tsx';
import { useRegenerateCode } from '../api/manage-group.ts';
import { groupErrorMessage } from '../api/errors.ts';
import { ConfirmDialog } from './confirm-dialog.tsx';
import { Message, useTranslate } from '../../../i18n/message.tsx';

async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    // Clipboard API missing (plain http) or refused: select the text so the person can copy it.
    return false;
  }
}

/** The join code; the owner can copy it and replace it with a new one. */
export function GroupCode({
  group,
  onResult,
}: {
  group: GroupDetail & { code: string };
  onResult: (message: string) => void;
}) {
  const [copied, setCopied] = useState<'yes' | 'failed' | null>(null);
  const [confirming, setConfirming] = useState(false);
  const regenerate = useRegenerateCode(group._id);
  const t = useTranslate();
  const isOwner = group.role === 'owner';
  const codeId = `group-code-${group._id}`;

  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(null), 2500);
    return () => clearTimeout(timer);
  }, [copied]);

  const copy = async () => {
    const ok = await copyText(group.code);
    if (!ok) {
      const node = document.getElementById(codeId);
      if (node) window.getSelection()?.selectAllChildren(node);
    }
    setCopied(ok ? 'yes' : 'failed');
  };

  return (
    <div className="groups-code">
      <span className="groups-code__label">
        <Message id="groups.code.label" defaultMessage="Group code" />
      </span>
      <code id={codeId} className="groups-code__value" translate="no">
        {group.code}
      </code>
      {isOwner && (
        <div className="groups-code__actions">
          <Button
            size="sm"
            variant="secondary"
            onClick={() => void copy()}
            aria-describedby={`${codeId}-status`}
          >
            {copied === 'yes' ? <CheckIcon size={16} /> : null}
            {copied === 'yes' ? (
              <Message id="groups.code.copied" defaultMessage="Copied" />
            ) : (
              <Message id="groups.code.copy" defaultMessage="Copy code" />
            )}
          </Button>
          <Button
            size="sm"
            variant="ghost"
            onClick={() => setConfirming(true)}
            disabled={regenerate.isPending}
          >
            <Message id="groups.code.new" defaultMessage="New code" />
          </Button>
        </div>
      )}
      <span id={`${codeId}-status`} className="groups-code__status" role="status">
        {copied === 'failed' ? (
          <Message
            id="groups.code.copyByHand"
            defaultMessage="Press Ctrl+C (or ⌘C) to copy the selected code"
          />
        ) : (
          ''
        )}
      </span>
      {isOwner && (
        <p className="groups-code__hint">
          <Message
            id="groups.code.hint"
            defaultMessage="Share this code with friends; you accept or decline each request."
          />
        </p>
      )}
      <ConfirmDialog
        open={confirming}
        title={t({ id: 'groups.code.confirmTitle', defaultMessage: 'Create a new code?' })}
        confirmLabel={t({ id: 'groups.code.confirm', defaultMessage: 'Create new code' })}
        busy={regenerate.isPending}
        onCancel={() => setConfirming(false)}
        onConfirm={() =>
          regenerate.mutate(undefined, {
            onSettled: () => setConfirming(false),
            onSuccess: ({ message }) => onResult(message),
            onError: (err) => onResult(groupErrorMessage(err)),
          })
        }
      >
        <p>
          <Message
            id="groups.code.confirmText"
            defaultMessage="The current code {code} will stop working. Requests already sent stay."
            values={{ code: <span translate="no">{group.code}</span> }}
          />
        </p>
      </ConfirmDialog>
    </div>
  );
}
