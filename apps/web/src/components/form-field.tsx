import { useId, type InputHTMLAttributes, type ReactNode, type Ref } from 'react';
import type { MessageDescriptor } from '../i18n/i18n-store.ts';
import { useTranslate } from '../i18n/message.tsx';
import { AlertIcon } from './icons.tsx';
import './form-field.css';

export interface TextFieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'id'> {
  label: string;
  /** Always-visible guidance under the field (spec section 5's help texts). */
  help?: ReactNode;
  /** The field's hint when its value is invalid; shown, announced and marked invalid when set. */
  error?: string | null;
  ref?: Ref<HTMLInputElement>;
}

/** A labelled input whose help and error texts are tied to it with aria-describedby. */
export function TextField({ label, help, error, className, ref, ...input }: TextFieldProps) {
  const id = useId();
  const helpId = `${id}-help`;
  const errorId = `${id}-error`;
  const describedBy = [error ? errorId : null, help ? helpId : null].filter(Boolean).join(' ') || undefined;
  return (
    <div className={['field', className].filter(Boolean).join(' ')}>
      <label className="field__label" htmlFor={id}>
        {label}
      </label>
      <input
        ref={ref}
        id={id}
        className="field__input"
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy}
        {...input}
      />
      {error && (
        <p id={errorId} className="field__error">
          <AlertIcon size={16} />
          {error}
        </p>
      )}
      {help && (
        <p id={helpId} className="field__help">
          {help}
        </p>
      )}
    </div>
  );
}

export interface CheckboxProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'type'> {
  label: ReactNode;
  /** Renders as an on/off switch (role="switch") instead of a tick box. */
  switch?: boolean;
  ref?: Ref<HTMLInputElement>;
}

export function Checkbox({ label, switch: isSwitch, className, ref, ...input }: CheckboxProps) {
  return (
    <label className={['checkbox', isSwitch && 'checkbox--switch', className].filter(Boolean).join(' ')}>
      <input
        ref={ref}
        type="checkbox"
        role={isSwitch ? 'switch' : undefined}
        className="checkbox__input"
        {...input}
      />
      <span className="checkbox__label">{label}</span>
    </label>
  );
}

export interface SelectFieldProps<T extends string> {
  label: ReactNode;
  value: T;
  options: readonly T[];
  /** Each option's words, defined beside the component that offers them (translation catalogues). */
  labels: Record<T, MessageDescriptor>;
  onChange: (value: T) => void;
  disabled?: boolean;
}

/** A labelled select in the form fields' look, its options one of a fixed set of values. */
export function SelectField<T extends string>({
  label,
  value,
  options,
  labels,
  onChange,
  disabled,
}: SelectFieldProps<T>) {
  const t = useTranslate();
  return (
    <label className="field">
      <span className="field__label">{label}</span>
      <select
        className="field__input"
        value={value}
        disabled={disabled}
        onChange={(e) => onChange(e.target.value as T)}
      >
        {options.map((option) => (
          <option key={option} value={option}>
            {t(labels[option])}
          </option>
        ))}
      </select>
    </label>
  );
}
