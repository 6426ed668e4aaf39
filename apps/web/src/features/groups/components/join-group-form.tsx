import { useState, type FormEvent } from 'react';
import { GROUP_CODE_EXAMPLE, GROUP_CODE_MAX } from '@cats/contracts';
import { Button } from '../../../components/button.tsx';
import { TextField } from '../../../components/form-field.tsx';
import { useJoinGroup } from '../api/join-group.ts';
import { groupErrorMessage } from '../api/errors.ts';
import { Message, useTranslate } from '../../../i18n/message.tsx';

/** Ask to join a group with its code; the owner answers the request. */
export function JoinGroupForm({ onResult }: { onResult: (message: string) => void }) {
  const [code, setCode] = useState('');
  const join = useJoinGroup();
  const t = useTranslate();
  const submit = (e: FormEvent) => {
    e.preventDefault();
    join.mutate(code.trim(), {
      onSuccess: ({ message }) => {
        setCode('');
        onResult(message);
      },
      onError: (err) => onResult(groupErrorMessage(err)),
    });
  };
  return (
    <form className="groups-form card" onSubmit={submit} aria-labelledby="groups-join-title">
      <h2 id="groups-join-title" className="groups-form__title">
        <Message id="groups.join.title" defaultMessage="Join a group" />
      </h2>
      <TextField
        label={t({ id: 'groups.join.code', defaultMessage: 'Group code' })}
        name="code"
        required
        autoComplete="off"
        autoCapitalize="off"
        spellCheck={false}
        // A code, and the spec's example code as its placeholder: not words to translate.
        translate="no"
        maxLength={GROUP_CODE_MAX}
        placeholder={GROUP_CODE_EXAMPLE}
        help={
          <Message
            id="groups.join.codeHelp"
            defaultMessage="Ask a member for the code, for example {example}"
            values={{ example: <span translate="no">{GROUP_CODE_EXAMPLE}</span> }}
          />
        }
        value={code}
        onChange={(e) => setCode(e.target.value)}
      />
      <Button type="submit" disabled={join.isPending}>
        <Message id="groups.join.submit" defaultMessage="Request to join group" />
      </Button>
    </form>
  );
}
