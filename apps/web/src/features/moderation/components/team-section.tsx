import { useId, useState, type FormEvent } from 'react';
import { Button } from '../../../components/button.tsx';
import { TextField } from '../../../components/form-field.tsx';
import { errorMessage } from '../../../components/post/api/errors.ts';
import { Message, useTranslate } from '../../../i18n/message.tsx';
import { useSetRole, useStaff } from '../api/staff.ts';

/** Admins only (issue 27): the moderation team, and making someone a moderator or a member again. */
export function TeamSection({ myUserId }: { myUserId: string }) {
  const headingId = useId();
  const staff = useStaff(true);
  const setRole = useSetRole();
  const [username, setUsername] = useState('');
  const [status, setStatus] = useState<{ kind: 'success' | 'error'; text: string } | null>(null);
  const t = useTranslate();

  const change = (user: string, role: 'moderator' | 'member', done: string) => {
    setStatus(null);
    setRole.mutate(
      { user, role },
      {
        onSuccess: () => {
          setStatus({ kind: 'success', text: done });
          if (role === 'moderator') setUsername('');
        },
        onError: (err) => setStatus({ kind: 'error', text: errorMessage(err) }),
      },
    );
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const name = username.trim();
    if (!name)
      return setStatus({
        kind: 'error',
        text: t({
          id: 'moderation.team.noUsername',
          defaultMessage: 'Enter the username of the person to add.',
        }),
      });
    change(
      name,
      'moderator',
      t(
        { id: 'moderation.team.added', defaultMessage: '{username} is now a moderator.' },
        { username: name },
      ),
    );
  };

  return (
    <section className="team card" aria-labelledby={headingId}>
      <h2 id={headingId} className="team__title">
        <Message id="moderation.team.heading" defaultMessage="Team" />
      </h2>
      {staff.isPending ? (
        <p className="loading-text">
          <Message id="moderation.loading" defaultMessage="Loading..." />
        </p>
      ) : staff.isError ? (
        <p className="notice notice--error">
          <Message
            id="moderation.error"
            defaultMessage="Error: {message}"
            values={{ message: errorMessage(staff.error) }}
          />
        </p>
      ) : (
        <ul className="team__list">
          {staff.data.staff.map((member) => (
            <li key={member._id} className="team__member">
              <span className="team__name">{member.username}</span>
              <span className="team__role muted">
                {member.role === 'admin' ? (
                  <Message id="moderation.team.admin" defaultMessage="Admin" />
                ) : (
                  <Message id="moderation.team.moderator" defaultMessage="Moderator" />
                )}
              </span>
              {member.role === 'moderator' && member._id !== myUserId && (
                <Button
                  variant="ghost"
                  size="sm"
                  disabled={setRole.isPending}
                  onClick={() =>
                    change(
                      member._id,
                      'member',
                      t(
                        {
                          id: 'moderation.team.removed',
                          defaultMessage: '{username} is no longer a moderator.',
                        },
                        { username: member.username },
                      ),
                    )
                  }
                >
                  <Message id="moderation.team.remove" defaultMessage="Remove moderator" />
                </Button>
              )}
            </li>
          ))}
        </ul>
      )}
      <form className="team__form" onSubmit={onSubmit}>
        <TextField
          label={t({ id: 'moderation.team.makeLabel', defaultMessage: 'Make a user a moderator' })}
          placeholder={t({ id: 'moderation.team.usernamePlaceholder', defaultMessage: 'Username' })}
          value={username}
          autoComplete="off"
          onChange={(e) => setUsername(e.target.value)}
        />
        <Button type="submit" variant="secondary" disabled={setRole.isPending}>
          <Message id="moderation.team.make" defaultMessage="Make moderator" />
        </Button>
      </form>
      {status && (
        <p className={`notice notice--${status.kind}`} role={status.kind === 'error' ? 'alert' : 'status'}>
          {status.text}
        </p>
      )}
    </section>
  );
}
