import { useState, type ChangeEvent } from 'react';

/**
 * A form's text fields checked as they are typed (spec section 5: sign-up, and the pages that take the
 * same email and password rules). A field's hint shows once it has been left with something in it, so
 * nobody is scolded mid-typing; editing any field calls `onEdit` (the forms clear their error message).
 */
export function useCheckedFields<F extends string>(
  initial: Record<F, string>,
  rules: (values: Record<F, string>) => Record<F, boolean>,
  onEdit: () => void,
) {
  const [values, setValues] = useState(initial);
  const [visited, setVisited] = useState<Partial<Record<F, boolean>>>({});
  const valid = rules(values);
  return {
    values,
    setValues,
    valid,
    allValid: (Object.keys(valid) as F[]).every((field) => valid[field]),
    /** Whether the field's hint shows: left with something in it that breaks its rule. */
    showHint: (field: F) => Boolean(visited[field]) && values[field] !== '' && !valid[field],
    /** Shows the field's hint now (a submit with the field still wrong). */
    reveal: (field: F) => setVisited((v) => ({ ...v, [field]: true })),
    /** The props that tie a TextField to the field. */
    bind: (field: F) => ({
      value: values[field],
      onChange: (e: ChangeEvent<HTMLInputElement>) => {
        const value = e.target.value;
        setValues((v) => ({ ...v, [field]: value }));
        onEdit();
      },
      onBlur: () => setVisited((v) => ({ ...v, [field]: true })),
    }),
  };
}
