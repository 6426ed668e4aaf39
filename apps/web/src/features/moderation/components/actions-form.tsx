import { useId, useState, type FormEvent } from 'react';
import {
  MODERATION_EXPLANATION_MAX,
  REPORT_REASONS,
  SUSPENSION_DAYS,
  type QueueGroup,
  type ReportReason,
  type TakeModerationActionsBody,
} from '@cats/contracts';
import { Button } from '../../../components/button.tsx';
import { CountedTextarea } from '../../../components/counted-textarea.tsx';
import { errorMessage } from '../../../components/post/api/errors.ts';
import { useTakeActions } from '../api/take-actions.ts';
import { REASON_LABELS } from './labels.ts';

type Choice = 'dismiss' | 'remove' | 'strip_location' | 'warn' | 'suspend';
/** 'forever' stands for suspendDays null (until lifted). */
type Duration = '1' | '7' | '30' | 'forever';

const CHOICES: { value: Choice; label: string; postsOnly?: boolean }[] = [
  { value: 'dismiss', label: 'Dismiss (nothing wrong)' },
  { value: 'remove', label: 'Remove' },
  { value: 'strip_location', label: 'Strip location', postsOnly: true },
  { value: 'warn', label: 'Warn the author' },
  { value: 'suspend', label: 'Suspend the author' },
];

const DURATIONS: { value: Duration; label: string }[] = [
  ...SUSPENSION_DAYS.map((days) => ({
    value: String(days) as Duration,
    label: days === 1 ? 'For 1 day' : `For ${days} days`,
  })),
  { value: 'forever', label: 'For good' },
];

/**
 * What the moderator does about one reported thing: one or more actions, the rule broken and an
 * explanation the person affected reads. 'Dismiss' stands alone.
 */
export function ActionsForm({ group, onDone }: { group: QueueGroup; onDone: (message: string) => void }) {
  const id = useId();
  const [chosen, setChosen] = useState<Choice[]>([]);
  const [rule, setRule] = useState<ReportReason | ''>(group.reports[0]?.reason ?? '');
  const [duration, setDuration] = useState<Duration>('7');
  const [explanation, setExplanation] = useState('');
  const [error, setError] = useState<string | null>(null);
  const take = useTakeActions();
  const choices = CHOICES.filter((c) => !c.postsOnly || group.targetType === 'post');
  const needsRule = chosen.some((c) => c !== 'dismiss');

  const toggle = (choice: Choice, on: boolean) => {
    setError(null);
    if (!on) setChosen((list) => list.filter((c) => c !== choice));
    else if (choice === 'dismiss') setChosen(['dismiss']);
    else setChosen((list) => [...list.filter((c) => c !== 'dismiss'), choice]);
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (chosen.length === 0) return setError('Choose at least one action.');
    if (needsRule && !rule) return setError('Choose which rule was broken.');
    if (needsRule && explanation.trim() === '')
      return setError('Say why: the person affected reads this explanation.');
    setError(null);
    const body: TakeModerationActionsBody = {
      actions: chosen.map((action) => ({
        action,
        ...(action !== 'dismiss' && rule ? { rule } : {}),
        explanation,
        ...(action === 'suspend'
          ? { suspendDays: duration === 'forever' ? null : (Number(duration) as 1 | 7 | 30) }
          : {}),
      })),
    };
    take.mutate(
      { reportId: group.reportId, body },
      {
        onSuccess: () =>
          onDone(chosen.includes('dismiss') ? 'The reports were dismissed.' : 'Your decision was applied.'),
        onError: (err) => setError(errorMessage(err)),
      },
    );
  };

  return (
    <form className="actions-form" onSubmit={onSubmit} aria-labelledby={`${id}-heading`}>
      <h3 id={`${id}-heading`} className="queue-card__heading">
        Decide
      </h3>
      <fieldset className="actions-form__choices">
        <legend className="visually-hidden">Actions</legend>
        {choices.map((choice) => (
          <label key={choice.value} className="actions-form__choice">
            <input
              type="checkbox"
              checked={chosen.includes(choice.value)}
              onChange={(e) => toggle(choice.value, e.target.checked)}
            />
            <span>{choice.label}</span>
          </label>
        ))}
      </fieldset>
      {chosen.includes('suspend') && (
        <label className="actions-form__field">
          <span>How long</span>
          <select value={duration} onChange={(e) => setDuration(e.target.value as Duration)}>
            {DURATIONS.map((d) => (
              <option key={d.value} value={d.value}>
                {d.label}
              </option>
            ))}
          </select>
        </label>
      )}
      {needsRule && (
        <>
          {/* Choices rather than a select: on a phone a closed select cut the longer rules short. */}
          <fieldset className="actions-form__choices actions-form__rules">
            <legend className="actions-form__legend">Rule broken</legend>
            {REPORT_REASONS.map((reason) => (
              <label key={reason} className="actions-form__choice">
                <input
                  type="radio"
                  name={`${id}-rule`}
                  value={reason}
                  checked={rule === reason}
                  onChange={() => {
                    setError(null);
                    setRule(reason);
                  }}
                />
                <span>{REASON_LABELS[reason]}</span>
              </label>
            ))}
          </fieldset>
          <CountedTextarea
            label="Explanation for the person affected"
            value={explanation}
            max={MODERATION_EXPLANATION_MAX}
            rows={3}
            onChange={(e) => setExplanation(e.target.value)}
          />
        </>
      )}
      {error && (
        <p className="notice notice--error" role="alert">
          {error}
        </p>
      )}
      <Button type="submit" variant="primary" disabled={take.isPending}>
        {take.isPending ? 'Applying...' : 'Apply'}
      </Button>
    </form>
  );
}
