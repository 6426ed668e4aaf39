import { useState } from 'react';
import { Navigate, useParams } from 'react-router';
import type { UserSummary } from '@cats/contracts';
import { useAuth } from '../../../lib/auth-store.ts';
import { Button } from '../../../components/button.tsx';
import { LoadError } from '../../../components/load-error.tsx';
import { DemoDisabledModal } from '../../../components/message-modal.tsx';
import { errorMessage, isDemoRefusal, logFailure } from '../../../components/post/api/errors.ts';
import { useBlockUser, useUnblockUser } from '../../../components/post/api/block-user.ts';
import { BlockUserDialog } from '../../../components/post/block-user-dialog.tsx';
import { ReportDialog } from '../../../components/report/report-dialog.tsx';
import { useUserProfile } from '../api/get-user-profile.ts';
import { ProfilePosts } from '../components/profile-posts.tsx';
import { UserProfileHeader } from '../components/user-profile-header.tsx';
import { Message, useTranslate } from '../../../i18n/message.tsx';
import '../profiles.css';
import { LoadingSkeleton, ProfileHeaderSkeleton } from '../../../components/skeleton/skeleton.tsx';

/**
 * Spec section 2, other profile: username, picture and that user's posts, with comments like the feed's
 * cards (issue 28); one's own id goes to /profile/me.
 */
export default function UserProfilePage() {
  const { userId: viewerId } = useAuth();
  const { userId = '' } = useParams();
  if (userId === viewerId) return <Navigate to="/profile/me" replace />;
  return <UserProfile key={userId} userId={userId} />;
}

function UserProfile({ userId }: { userId: string }) {
  const profile = useUserProfile(userId);
  const user = profile.data;
  // A blocked profile answers 404 like an unknown one (blocks leave no trace), so the blocked state
  // is known from the block itself, on this page only; Settings lists blocked users for later.
  const [blocked, setBlocked] = useState<UserSummary | null>(null);
  const t = useTranslate();

  if (blocked) return <BlockedProfile user={blocked} onUnblocked={() => setBlocked(null)} />;
  return (
    <div className="profile-page">
      <section
        className="profile-page__head profile-page__head--compact"
        aria-label={t({ id: 'profiles.region', defaultMessage: 'Profile' })}
      >
        {user ? (
          <UserProfileHeader
            user={user}
            actions={
              <>
                <BlockButton
                  user={user}
                  onBlocked={() => setBlocked(user)}
                  onUndone={() => setBlocked(null)}
                />
                <ReportButton user={user} onBlocked={() => setBlocked(user)} />
              </>
            }
          />
        ) : profile.isError ? (
          <LoadError error={profile.error} onRetry={() => void profile.refetch()} />
        ) : (
          <LoadingSkeleton label={t({ id: 'profiles.loading', defaultMessage: 'Loading profile...' })}>
            <ProfileHeaderSkeleton />
          </LoadingSkeleton>
        )}
      </section>
      {user && (
        <section className="profile-page__pictures" aria-labelledby="profile-pictures">
          <h2 id="profile-pictures">
            <Message id="profiles.pictures" defaultMessage="Pictures" />
          </h2>
          <ProfilePosts
            userId={userId}
            own={false}
            showComments
            emptyText={t({ id: 'profiles.user.empty', defaultMessage: 'No pictures yet.' })}
          />
        </section>
      )}
    </div>
  );
}

/** 'Report' (issue 27): the person, with a block in the same step if asked. */
function ReportButton({ user, onBlocked }: { user: UserSummary; onBlocked: () => void }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button variant="ghost" size="sm" onClick={() => setOpen(true)}>
        <Message id="profiles.user.report" defaultMessage="Report" />
      </Button>
      {open && (
        <ReportDialog
          target={{ type: 'user', id: user._id }}
          owner={user}
          onClose={() => setOpen(false)}
          onReported={(receipt) => receipt.blocked && onBlocked()}
        />
      )}
    </>
  );
}

/** 'Block', with the same confirmation as the cards' menu. */
function BlockButton({
  user,
  onBlocked,
  onUndone,
}: {
  user: UserSummary;
  onBlocked: () => void;
  onUndone: () => void;
}) {
  const block = useBlockUser();
  const [confirming, setConfirming] = useState(false);
  const [demo, setDemo] = useState(false);
  return (
    <>
      <Button variant="secondary" size="sm" onClick={() => setConfirming(true)}>
        <Message id="profiles.user.block" defaultMessage="Block" />
      </Button>
      {confirming && (
        <BlockUserDialog
          username={user.username}
          pending={block.isPending}
          onCancel={() => setConfirming(false)}
          onConfirm={() =>
            block.mutate(
              { user, onUndone },
              {
                onSuccess: onBlocked,
                onError: (err) => (isDemoRefusal(err) ? setDemo(true) : logFailure('Block user failed', err)),
                onSettled: () => setConfirming(false),
              },
            )
          }
        />
      )}
      {demo && <DemoDisabledModal onClose={() => setDemo(false)} />}
    </>
  );
}

/** What the profile shows right after blocking them, with the way back. */
function BlockedProfile({ user, onUnblocked }: { user: UserSummary; onUnblocked: () => void }) {
  const unblock = useUnblockUser();
  const [failure, setFailure] = useState<string | null>(null);
  const t = useTranslate();
  return (
    <div className="profile-page">
      <section
        className="profile-page__head profile-page__blocked"
        aria-label={t({ id: 'profiles.region', defaultMessage: 'Profile' })}
      >
        <h1>{user.username}</h1>
        <p className="profile-page__status">
          <Message
            id="profiles.blocked.status"
            defaultMessage="You blocked {name}."
            values={{ name: user.username }}
          />
        </p>
        <p className="profile-page__privacy">
          <Message
            id="profiles.blocked.explanation"
            defaultMessage="You will not see each other's pictures, comments or profiles. Blocked users are listed in Settings."
          />
        </p>
        <Button
          variant="secondary"
          size="sm"
          disabled={unblock.isPending}
          onClick={() => {
            setFailure(null);
            unblock.mutate(user._id, {
              onSuccess: onUnblocked,
              onError: (err) =>
                setFailure(
                  t(
                    { id: 'profiles.blocked.unblockFailed', defaultMessage: 'Error: {message}' },
                    { message: errorMessage(err) },
                  ),
                ),
            });
          }}
        >
          <Message id="profiles.blocked.unblock" defaultMessage="Unblock" />
        </Button>
        {failure && (
          <p className="profile-page__error" role="alert">
            {failure}
          </p>
        )}
      </section>
    </div>
  );
}
