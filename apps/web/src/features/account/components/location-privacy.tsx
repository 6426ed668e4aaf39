import { useId, useState } from 'react';
import { Checkbox } from '../../../components/form-field.tsx';
import { isDemoDisabledError } from '../../../components/message-modal.tsx';
import { Message, useTranslate } from '../../../i18n/message.tsx';
import { useSetLocationPrivacy } from '../api/set-location-privacy.ts';
import { errorText, FormStatusMessage, SettingsCard, type FormStatus } from './settings-card.tsx';

interface Props {
  exact: boolean;
  disabled: boolean;
  onDemoRefused: () => void;
}

/** Who sees where your cats were: roughly (the default) or exactly. */
export function LocationPrivacy({ exact, disabled, onDemoRefused }: Props) {
  const mutation = useSetLocationPrivacy();
  const [status, setStatus] = useState<FormStatus>(null);
  const explanationId = useId();
  const t = useTranslate();
  return (
    <SettingsCard title={t({ id: 'settings.location.title', defaultMessage: 'Location privacy' })}>
      {() => (
        <>
          <Checkbox
            switch
            label={t({
              id: 'settings.location.label',
              defaultMessage: 'Show the exact location of my pictures',
            })}
            checked={exact}
            // Not disabled while saving: a disabled control would drop the keyboard focus.
            disabled={disabled}
            aria-describedby={explanationId}
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
          <p id={explanationId} className="settings-card__explanation" aria-live="polite">
            {exact ? (
              <Message
                id="settings.location.exact"
                defaultMessage="Others see the exact spot where you took each picture."
              />
            ) : (
              <Message
                id="settings.location.rough"
                defaultMessage="Others see your cats' locations to within about 500 m."
              />
            )}
          </p>
          <p className="settings-card__description">
            <Message
              id="settings.location.description"
              defaultMessage="You always see your own pictures' exact spot, and so do the members of groups you share a picture with. Pictures whose location you hide show no location to anyone else, on no map."
            />
          </p>
          <FormStatusMessage status={status} />
        </>
      )}
    </SettingsCard>
  );
}
