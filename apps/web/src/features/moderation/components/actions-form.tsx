import { useId, useState, type FormEvent } from 'react';
import { RULE_MESSAGES } from '../../../components/moderation/moderation-wording.ts';
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
import { defineMessage, translate, type MessageDescriptor } from '../../../i18n/i18n-store.ts';
import { Message, useTranslate } from '../../../i18n/message.tsx';
import { useTakeActions } from '../api/take-actions.ts';

type Choice = 'dismiss' | 'remove' | 'strip_location' | 'warn' | 'suspend';
/** 'forever' stands for suspendDays null (until lifted). */
type Duration = '1' | '7' | '30' | 'forever';

const CHOICES: { value: Choice; label: MessageDescriptor; postsOnly?: boolean }[] = [
  {
    value: 'dismiss',
    label: defineMessage({ id: 'moderation.choice.dismiss', defaultMessage: 'Dismiss (nothing wrong)' }),
  },
  { value: 'remove', label: defineMessage({ id: 'moderation.choice.remove', defaultMessage: 'Remove' }) },
  {
    value: 'strip_location',
    label: defineMessage({ id: 'moderation.choice.stripLocation', defaultMessage: 'Strip location' }),
    postsOnly: true,
  },
  {
    value: 'warn',
    label: defineMessage({ id: 'moderation.choice.warn', defaultMessage: 'Warn the author' }),
  },
  {
    value: 'suspend',
    label: defineMessage({ id: 'moderation.choice.suspend', defaultMessage: 'Suspend the author' }),
  },
];

/** The suspension lengths offered, each in words in the current language. */
function durations(): { value: Duration; label: string }[] {
  return [
    ...SUSPENSION_DAYS.map((days) => ({
      value: String(days) as Duration,
      label: translate(
        {
          id: 'moderation.duration.forDays',
          defaultMessage: '{count, plural, one {For # day} other {For # days}}',
        },
        { count: days },
      ),
    })),
    { value: 'forever', label: translate({ id: 'moderation.duration.forGood', defaultMessage: 'For good' }) },
  ];
}

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
  const t = useTranslate();
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
    if (chosen.length === 0)
      return setError(
        t({ id: 'moderation.actions.noAction', defaultMessage: 'Choose at least one action.' }),
      );
    if (needsRule && !rule)
      return setError(
        t({ id: 'moderation.actions.noRule', defaultMessage: 'Choose which rule was broken.' }),
      );
    if (needsRule && explanation.trim() === '')
      return setError(
        t({
          id: 'moderation.actions.noExplanation',
          defaultMessage: 'Say why: the person affected reads this explanation.',
        }),
      );
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
          onDone(
            chosen.includes('dismiss')
              ? t({ id: 'moderation.actions.dismissed', defaultMessage: 'The reports were dismissed.' })
              : t({ id: 'moderation.actions.applied', defaultMessage: 'Your decision was applied.' }),
          ),
        onError: (err) => setError(errorMessage(err)),
      },
    );
  };

  return (
    <form className="actions-form" onSubmit={onSubmit} aria-labelledby={`${id}-heading`}>
      <h3 id={`${id}-heading`} className="queue-card__heading">
        <Message id="moderation.actions.heading" defaultMessage="Decide" />
      </h3>
      <fieldset className="actions-form__choices">
        <legend className="visually-hidden">
          <Message id="moderation.actions.legend" defaultMessage="Actions" />
        </legend>
        {choices.map((choice) => (
          <label key={choice.value} className="actions-form__choice">
            <input
              type="checkbox"
              checked={chosen.includes(choice.value)}
              onChange={(e) => toggle(choice.value, e.target.checked)}
            />
            <span>{t(choice.label)}</span>
          </label>
        ))}
      </fieldset>
      {chosen.includes('suspend') && (
        <label className="actions-form__field">
          <span>
            <Message id="moderation.actions.howLong" defaultMessage="How long" />
          </span>
          <select value={duration} onChange={(e) => setDuration(e.target.value as Duration)}>
            {durations().map((d) => (
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
            <legend className="actions-form__legend">
              <Message id="moderation.actions.rule" defaultMessage="Rule broken" />
            </legend>
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
                <span>{t(RULE_MESSAGES[reason])}</span>
              </label>
            ))}
          </fieldset>
          <CountedTextarea
            label={t({
              id: 'moderation.actions.explanation',
              defaultMessage: 'Explanation for the person affected',
            })}
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
        {take.isPending ? (
          <Message id="moderation.actions.applying" defaultMessage="Applying..." />
        ) : (
          <Message id="moderation.actions.apply" defaultMessage="Apply" />
        )}
      </Button>
    </form>
  );
}
