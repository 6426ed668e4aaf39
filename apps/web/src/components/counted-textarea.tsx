import { useId, type Ref, type TextareaHTMLAttributes } from 'react';
import { Message } from '../i18n/message.tsx';
import './counted-textarea.css';

interface CountedTextareaProps extends Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, 'id' | 'value'> {
  label: string;
  value: string;
  /** The limit the server holds; the counter shows what is left of it. */
  max: number;
  /** Shown under the field, tied to it with aria-describedby. */
  help?: string;
  error?: string | null;
  ref?: Ref<HTMLTextAreaElement>;
}

/**
 * A labelled textarea with a live 'n / max' counter: long texts (a photo's description) are easier to
 * write when one sees how much room is left. maxLength stops typing at the limit.
 */
export function CountedTextarea({
  label,
  value,
  max,
  help,
  error,
  className,
  ref,
  ...rest
}: CountedTextareaProps) {
  const id = useId();
  const describedBy = [`${id}-count`, help ? `${id}-help` : null, error ? `${id}-error` : null]
    .filter(Boolean)
    .join(' ');
  return (
    <div className={['counted-textarea', className].filter(Boolean).join(' ')}>
      <label htmlFor={id} className="counted-textarea__label">
        {label}
      </label>
      <textarea
        ref={ref}
        id={id}
        value={value}
        maxLength={max}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy}
        {...rest}
      />
      <div className="counted-textarea__footer">
        {help ? (
          <p id={`${id}-help`} className="counted-textarea__help">
            {help}
          </p>
        ) : (
          <span />
        )}
        <span id={`${id}-count`} className="counted-textarea__count">
          <Message
            id="common.counter"
            defaultMessage="{count} / {max}"
            // Strings: the counter reads '0 / 2000', without a thousands separator.
            values={{ count: String(value.length), max: String(max) }}
          />
        </span>
      </div>
      {error && (
        <p id={`${id}-error`} className="counted-textarea__error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
