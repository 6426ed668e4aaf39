import { useState } from 'react';
import type { Cat } from '@cats/contracts';
import { Button } from '../../../components/button.tsx';
import { Message, useTranslate } from '../../../i18n/message.tsx';
import { DemoDisabledModal } from '../../../components/message-modal.tsx';
import { errorMessage, isDemoRefusal } from '../../../components/post/api/errors.ts';
import { useFollowCat } from '../api/follow-cat.ts';

/**
 * Follow / Unfollow (new sightings will notify the follower). The demo account may not follow: the
 * button shows, disabled, with the reason, as Settings does for the demo's other disabled features.
 */
export function FollowButton({ cat }: { cat: Cat }) {
  const follow = useFollowCat(cat._id);
  const [demo, setDemo] = useState(false);
  const following = follow.isPending ? follow.variables : cat.viewer.following;
  const count = cat.followerCount;
  const t = useTranslate();
  const demoNote = t({
    id: 'cats.follow.demoDisabled',
    defaultMessage: 'Following cats is disabled for the demo user.',
  });
  return (
    <div className="cat-follow">
      <Button
        variant={following ? 'secondary' : 'accent'}
        disabled={!cat.viewer.canFollow || follow.isPending}
        title={cat.viewer.canFollow ? undefined : demoNote}
        onClick={() =>
          follow.mutate(!following, { onError: (err) => (isDemoRefusal(err) ? setDemo(true) : undefined) })
        }
      >
        {following ? (
          <Message id="cats.follow.unfollow" defaultMessage="Unfollow" />
        ) : (
          <Message id="cats.follow.follow" defaultMessage="Follow" />
        )}
      </Button>
      <p className="cat-follow__count">
        <Message
          id="cats.follow.count"
          defaultMessage="{count, plural, =0 {Nobody follows this cat yet.} one {# person follows this cat.} other {# people follow this cat.}}"
          values={{ count }}
        />
      </p>
      {!cat.viewer.canFollow && <p className="cat-follow__note">{demoNote}</p>}
      {follow.isError && !isDemoRefusal(follow.error) && (
        <p className="cat-follow__error" role="alert">
          {errorMessage(follow.error)}
        </p>
      )}
      {demo && <DemoDisabledModal onClose={() => setDemo(false)} />}
    </div>
  );
}
