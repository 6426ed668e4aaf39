import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { GROUP_NAME_MAX, hasVisibleCharacter } from '@cats/contracts';
import { Button } from '../../../components/button.tsx';
import { TextField } from '../../../components/form-field.tsx';
import { useCreateGroup } from '../api/create-group.ts';
import { groupErrorMessage } from '../api/errors.ts';
import { Message, useTranslate } from '../../../i18n/message.tsx';

/** What the new group's page shows on arrival: the result modal with its code (spec section 2). */
export interface CreatedGroupState {
  created: string;
}

/**
 * Create a group: the creator becomes its owner and lands on its page (issue 28, point 7), where the
 * result modal tells the code to share.
 */
export function CreateGroupForm({ onResult }: { onResult: (message: string) => void }) {
  const [name, setName] = useState('');
  const create = useCreateGroup();
  const navigate = useNavigate();
  const t = useTranslate();
  const submit = (e: FormEvent) => {
    e.preventDefault();
    // The server refuses it too (the contracts' rule, GROUP_MESSAGES' texts); answered here without a
    // round trip.
    if (!hasVisibleCharacter(name)) {
      onResult(
        name.trim()
          ? t({
              id: 'groups.create.nameInvisible',
              defaultMessage: 'Group name must contain a visible character',
            })
          : t({ id: 'groups.create.nameRequired', defaultMessage: 'Group name is required' }),
      );
      return;
    }
    create.mutate(name.trim(), {
      onSuccess: ({ message, group }) => {
        setName('');
        const state: CreatedGroupState = { created: message };
        void navigate(`/groups/${group._id}`, { state });
      },
      onError: (err) => onResult(groupErrorMessage(err)),
    });
  };
  return (
    <form className="groups-form card" onSubmit={submit} aria-labelledby="groups-create-title">
      <h2 id="groups-create-title" className="groups-form__title">
        <Message id="groups.create.title" defaultMessage="Create a group" />
      </h2>
      <TextField
        label={t({ id: 'groups.create.name', defaultMessage: 'Group name' })}
        name="name"
        required
        autoComplete="off"
        maxLength={GROUP_NAME_MAX}
        help={t(
          { id: 'groups.create.nameHelp', defaultMessage: '(Max {max} characters)' },
          { max: GROUP_NAME_MAX },
        )}
        value={name}
        onChange={(e) => setName(e.target.value)}
      />
      <Button type="submit" disabled={create.isPending}>
        <Message id="groups.create.submit" defaultMessage="Create group" />
      </Button>
    </form>
  );
}
