import { useId, useState, type FormEvent } from 'react';
import { Button } from '../../../components/button.tsx';
import { TextField } from '../../../components/form-field.tsx';
import { errorMessage } from '../../../components/post/api/errors.ts';
import { useSetRole, useStaff } from '../api/staff.ts';

/** Admins only (issue 27): the moderation team, and making someone a moderator or a member again. */
export function TeamSection({ myUserId }: { myUserId: string }) {
  const headingId = useId();
  const staff = useStaff(true);
  const setRole = useSetRole();
  const [username, setUsername] = useState('');
  const [status, setStatus] = useState<{ kind: 'success' | 'error'; text: string } | null>(null);

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
    if (!name) return setStatus({ kind: 'error', text: 'Enter the username of the person to add.' });
    change(name, 'moderator', `${name} is now a moderator.`);
  };

  return (
    <section className="team card" aria-labelledby={headingId}>
      <h2 id={headingId} className="team__title">
        Team
      </h2>
      {staff.isPending ? (
        <p className="loading-text">Loading...</p>
      ) : staff.isError ? (
        <p className="notice notice--error">Error: {errorMessage(staff.error)}</p>
      ) : (
        <ul className="team__list">
          {staff.data.staff.map((member) => (
            <li key={member._id} className="team__member">
              <span className="team__name">{member.username}</span>
              <span className="team__role muted">{member.role === 'admin' ? 'Admin' : 'Moderator'}</span>
              {member.role === 'moderator' && member._id !== myUserId && (
                <Button
                  variant="ghost"
                  size="sm"
                  disabled={setRole.isPending}
                  onClick={() => change(member._id, 'member', `${member.username} is no longer a moderator.`)}
                >
                  Remove moderator
                </Button>
              )}
            </li>
          ))}
        </ul>
      )}
      <form className="team__form" onSubmit={onSubmit}>
        <TextField
          label="Make a user a moderator"
          placeholder="Username"
          value={username}
          autoComplete="off"
          onChange={(e) => setUsername(e.target.value)}
        />
        <Button type="submit" variant="secondary" disabled={setRole.isPending}>
          Make moderator
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
