import { useEffect, useRef, useState } from 'react';
import { CAT_PROFILE_NAME_MAX, type CatListItem } from '@cats/contracts';
import { Message, useTranslate } from '../../i18n/message.tsx';
import { TextField } from '../form-field.tsx';
import { errorMessage } from '../post/api/errors.ts';
import { CatThumb } from './cat-thumb.tsx';
import { MissingTag } from './missing-tag.tsx';
import { LastSeenText } from './last-seen-text.tsx';
import { householdOnlyCaretakers, mayLinkTo } from './may-link.ts';
import './cats.css';

/** Typing pauses this long before the list asks the server again. */
const SEARCH_DELAY_MS = 250;

/** What the list needs to know of its caller's search request (a TanStack query). */
export interface CatSearchState {
  isPending: boolean;
  isFetching: boolean;
  isError: boolean;
  isSuccess: boolean;
  error: unknown;
}

interface CatSearchListProps {
  /** The search field's label. */
  label: string;
  /** Called with the trimmed text once typing pauses (and once, with '', at the start). */
  onSearch: (q: string) => void;
  search: CatSearchState;
  cats: CatListItem[];
  /** Said while the first answer is on its way. */
  loadingText: string;
  /** Said when the answer lists no cat (the caller knows whether a name was searched). */
  emptyText: string;
  /** The list's accessible name. */
  listLabel: string;
  onChoose: (cat: CatListItem) => void;
  /** While the caller saves a choice, no other can be made. */
  disabled?: boolean;
  /**
   * For a list that links a picture to a cat: the linked cat's id, or null when none is. Each option
   * then says whether it is the linked one (aria-pressed), which is tagged and can't be chosen again.
   * Left out, the options are plain buttons.
   */
  linkedCatId?: string | null;
  /**
   * The choice links a picture to the cat or suggests it: a household cat the viewer does not care for
   * is shown but can't be chosen, and says why (the server would refuse it, decision 022).
   */
  linksPicture?: boolean;
}

/**
 * Searching cats by name and choosing one: the search field, then the answer as a list of cats with
 * their cover photo, name and when they were last seen. The caller owns the request (which cats, how
 * near) and what a choice does; the list's look (which-cat__*) is the same wherever a cat is chosen.
 */
export function CatSearchList({
  label,
  onSearch,
  search,
  cats,
  loadingText,
  emptyText,
  listLabel,
  onChoose,
  disabled = false,
  linkedCatId,
  linksPicture = false,
}: CatSearchListProps) {
  const [text, setText] = useState('');
  const t = useTranslate();
  // The latest callback, so a caller's new function each render does not restart the pause.
  const onSearchRef = useRef(onSearch);
  useEffect(() => {
    onSearchRef.current = onSearch;
  });

  useEffect(() => {
    const timer = setTimeout(() => onSearchRef.current(text.trim()), SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [text]);

  const marksLinked = linkedCatId !== undefined;
  return (
    <>
      <TextField
        label={label}
        type="search"
        autoComplete="off"
        maxLength={CAT_PROFILE_NAME_MAX}
        value={text}
        onChange={(e) => setText(e.target.value)}
      />
      <div className="which-cat__results" aria-busy={search.isFetching}>
        {search.isPending && (
          <p className="which-cat__status" role="status">
            {loadingText}
          </p>
        )}
        {search.isError && (
          <p className="notice notice--error" role="alert">
            {errorMessage(search.error)}
          </p>
        )}
        {search.isSuccess && cats.length === 0 && <p className="which-cat__status">{emptyText}</p>}
        {cats.length > 0 && (
          <ul className="which-cat__list" aria-label={listLabel}>
            {cats.map((cat) => {
              const linked = marksLinked && linkedCatId === cat._id;
              const closed = linksPicture && !linked && !mayLinkTo(cat);
              return (
                <li key={cat._id}>
                  <button
                    type="button"
                    className="which-cat__option"
                    aria-pressed={marksLinked ? linked : undefined}
                    disabled={disabled || linked || closed}
                    onClick={() => onChoose(cat)}
                  >
                    <CatThumb cover={cat.cover} size={48} />
                    <span className="which-cat__option-text">
                      <span>
                        <span className="which-cat__name">{cat.name}</span>
                        {cat.missing && <MissingTag />}
                      </span>
                      <LastSeenText at={cat.lastSeenAt} className="which-cat__seen" />
                      {closed && <span className="which-cat__closed">{t(householdOnlyCaretakers)}</span>}
                    </span>
                    {linked && (
                      <span className="which-cat__tag">
                        <Message id="cats.search.linked" defaultMessage="Linked" />
                      </span>
                    )}
                  </button>
                </li>
              );
            })}
          </ul>
        )}
      </div>
    </>
  );
}
