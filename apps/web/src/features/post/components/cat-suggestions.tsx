import { useId, useState } from 'react';
import { Link } from 'react-router';
import type { PostCatSuggestion } from '@cats/contracts';
import { Button } from '../../../components/button.tsx';
import { CatThumb } from '../../../components/cats/cat-thumb.tsx';
import { DemoDisabledModal } from '../../../components/message-modal.tsx';
import { RelativeTime } from '../../../components/relative-time.tsx';
import { showToast } from '../../../components/toast.tsx';
import { errorMessage, isDemoRefusal } from '../../../components/post/api/errors.ts';
import { useAnswerCatSuggestion, useCatSuggestions } from '../api/cat-suggestions.ts';
import { Message } from '../../../i18n/message.tsx';

/**
 * Issue 26, 'This is Luna': on the author's own picture, what others suggest it shows, each with
 * Accept (the picture is linked to that cat, its followers told as for any link) and Decline. Nothing
 * shows while there is nothing to answer.
 */
export function CatSuggestions({ postId }: { postId: string }) {
  const query = useCatSuggestions(postId);
  const answer = useAnswerCatSuggestion(postId);
  const [failure, setFailure] = useState<string | null>(null);
  const [demo, setDemo] = useState(false);
  const suggestions = query.data ?? [];
  if (suggestions.length === 0 && !failure && !demo) return null;

  const respond = (suggestion: PostCatSuggestion, accept: boolean) => {
    setFailure(null);
    answer.mutate(
      { suggestionId: suggestion._id, accept },
      {
        onSuccess: () =>
          showToast({
            message: accept
              ? `This picture now shows ${suggestion.cat.name}.`
              : `You declined ${suggestion.suggestedBy.username}'s suggestion.`,
          }),
        onError: (err) => {
          if (isDemoRefusal(err)) setDemo(true);
          else setFailure(errorMessage(err));
        },
      },
    );
  };

  return (
    <section className="post-page__suggestions" aria-labelledby="post-page-suggestions">
      <h2 id="post-page-suggestions" className="post-page__section-title">
        <Message id="post.suggestions.title" defaultMessage="Which cat is this? Suggestions" />
      </h2>
      <ul className="cat-suggestions">
        {suggestions.map((s) => (
          <SuggestionItem
            key={s._id}
            suggestion={s}
            pending={answer.isPending}
            onAnswer={(accept) => respond(s, accept)}
          />
        ))}
      </ul>
      {failure && (
        <p className="notice notice--error" role="alert">
          {failure}
        </p>
      )}
      {demo && <DemoDisabledModal onClose={() => setDemo(false)} />}
    </section>
  );
}

interface SuggestionItemProps {
  suggestion: PostCatSuggestion;
  pending: boolean;
  onAnswer: (accept: boolean) => void;
}

/** One suggestion: its sentence describes both buttons, so 'Accept' says what it accepts. */
function SuggestionItem({ suggestion: s, pending, onAnswer }: SuggestionItemProps) {
  const textId = useId();
  return (
    <li className="cat-suggestions__item">
      <CatThumb cover={s.cat.cover} size={48} />
      <p id={textId} className="cat-suggestions__text">
        <Message
          id="post.suggestions.text"
          defaultMessage="<who>{username}</who> suggests this is <cat>{name}</cat>. {when}"
          values={{
            username: s.suggestedBy.username,
            name: s.cat.name,
            who: (chunks) => <strong>{chunks}</strong>,
            cat: (chunks) => <Link to={`/cats/${encodeURIComponent(s.cat._id)}`}>{chunks}</Link>,
            when: <RelativeTime value={s.createdAt} className="cat-suggestions__time" />,
          }}
        />
      </p>
      <div className="cat-suggestions__actions">
        <Button size="sm" disabled={pending} aria-describedby={textId} onClick={() => onAnswer(true)}>
          <Message id="post.suggestions.accept" defaultMessage="Accept" />
        </Button>
        <Button
          size="sm"
          variant="secondary"
          disabled={pending}
          aria-describedby={textId}
          onClick={() => onAnswer(false)}
        >
          <Message id="post.suggestions.decline" defaultMessage="Decline" />
        </Button>
      </div>
    </li>
  );
}
