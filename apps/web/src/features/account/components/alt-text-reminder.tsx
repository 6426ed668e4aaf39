import { useState } from 'react';
import { Checkbox } from '../../../components/form-field.tsx';
import { isDemoDisabledError } from '../../../components/message-modal.tsx';
import { Message, useTranslate } from '../../../i18n/message.tsx';
import { useSetAltTextReminder } from '../api/set-alt-text-reminder.ts';
import { errorText, FormStatusMessage, SettingsCard, type FormStatus } from './settings-card.tsx';

interface Props {
  on: boolean;
  disabled: boolean;
  onDemoRefused: () => void;
}

/** Whether Spot reminds you to describe a photo you share without a description (issue 24). */
export function AltTextReminder({ on, disabled, onDemoRefused }: Props) {
  const mutation = useSetAltTextReminder();
  const [status, setStatus] = useState<FormStatus>(null);
  const t = useTranslate();
  return (
    <SettingsCard title={t({ id: 'settings.altText.title', defaultMessage: 'Photo descriptions' })}>
      {() => (
        <>
          <Checkbox
            switch
            label={t({ id: 'settings.altText.label', defaultMessage: 'Remind me to describe my photos' })}
            checked={on}
            // Not disabled while saving: a disabled control would drop the keyboard focus.
            disabled={disabled}
            onChange={(e) => {
              setStatus(null);
              mutation.mutate(e.target.checked, {
                onError: (err) =>
                  isDemoDisabledError(err)
                    ? onDemoRefused()
                    : setStatus({ kind: 'error', text: errorText(err) }),
              });
            }}
          />
          <p className="settings-card__description">
            <Message
              id="settings.altText.description"
              defaultMessage="A description lets people who use a screen reader know what is in your picture. When you share a photo without one, we ask once before posting."
            />
          </p>
          <FormStatusMessage status={status} />
        </>
      )}
    </SettingsCard>
  );
}
