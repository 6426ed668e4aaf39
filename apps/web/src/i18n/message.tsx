import { Fragment, useCallback, useSyncExternalStore, type ReactNode } from 'react';
import type { PrimitiveType } from 'intl-messageformat';
import {
  currentTexts,
  subscribeLanguage,
  translate,
  translateParts,
  type MessageDescriptor,
  type MessageValues,
} from './i18n-store.ts';
import type { Language } from './languages.ts';

/**
 * The current language; components that use it render again when it or its loaded texts change
 * (the member screens' part of a catalogue arrives after the first screen).
 */
export function useLanguage(): Language {
  return useSyncExternalStore(subscribeLanguage, currentTexts, currentTexts).language;
}

/**
 * `t(message, values)`: a message as a string in the current language, for attributes (aria-label,
 * placeholder, alt, title) and anything else that needs plain text.
 */
export function useTranslate(): (descriptor: MessageDescriptor, values?: MessageValues) => string {
  const texts = useSyncExternalStore(subscribeLanguage, currentTexts, currentTexts);
  // A new function whenever the texts change, so that memoised children see the change.
  // eslint-disable-next-line react-hooks/exhaustive-deps
  return useCallback((descriptor, values) => translate(descriptor, values), [texts]);
}

type RichValue = PrimitiveType | ReactNode | ((chunks: ReactNode[]) => ReactNode);

/**
 * A message as page content. Values may be React nodes ('{name}' as a link) and tags in the message
 * ('<strong>…</strong>') are given as functions of their content: a sentence stays whole, for the
 * translator to reorder, instead of being glued from pieces.
 */
export function Message({
  values,
  ...descriptor
}: MessageDescriptor & { values?: Record<string, RichValue> }) {
  useLanguage();
  const parts = translateParts<ReactNode>(
    descriptor,
    (values ?? {}) as Record<string, PrimitiveType | ReactNode | ((chunks: ReactNode[]) => ReactNode)>,
  );
  if (!Array.isArray(parts)) return <>{parts}</>;
  return (
    <>
      {parts.map((part, index) => (
        // The parts of one formatted message never move: their position is their identity.
        <Fragment key={index}>{part}</Fragment>
      ))}
    </>
  );
}
