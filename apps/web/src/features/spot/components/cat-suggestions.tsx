import { useEffect, useId, useRef, type MouseEvent, type ReactNode } from 'react';
import { CAT_PROFILE_NAME_MAX, type CatSummary } from '@cats/contracts';
import { CatThumb } from '../../../components/cats/cat-thumb.tsx';
import { linkSeenByCaretakersOnly, mayLinkTo, type LinkingFacts } from '../../../components/cats/may-link.ts';
import { MissingTag } from '../../../components/cats/missing-tag.tsx';
import { TextField } from '../../../components/form-field.tsx';
import { CheckIcon } from '../../../components/icons.tsx';
import { errorMessage } from '../../../components/post/api/errors.ts';
import { useCatSuggestions } from '../api/get-cat-suggestions.ts';
import { Message, useTranslate } from '../../../i18n/message.tsx';

/** The cards' pictures: symbols, the same in every language, hidden from screen readers (the name says it). */
const SYMBOLS = { new: '+', unsure: '?' } as const;

/** What the picture is said to show: a known cat, a cat to be made from it, or no one in particular. */
export type CatChoice = { kind: 'unsure' } | { kind: 'new' } | { kind: 'cat'; cat: CatSummary };

/** A cat that may be offered, with what says whether the viewer may link a picture to it. */
export type OfferedCat = CatSummary & LinkingFacts;

interface CatSuggestionsProps {
  /** The picture's place: the cats seen near it lately are offered. Null: none are asked for. */
  near: { latitude: number; longitude: number } | null;
  /** A cat named in the address (/spot?cat=…, 'I saw this cat'): offered first, wherever it was seen. */
  pinned: OfferedCat | null;
  choice: CatChoice;
  onChoice: (next: CatChoice) => void;
  newName: string;
  onNewName: (name: string) => void;
  newNameError: string | null;
}

/**
 * 'Which cat is this?' on Spot (issue 26): up to five cats seen within 300 m of the photo's place in the
 * last 90 days, 'New cat' and 'Not sure' (the default), as one radio group: a tap on a card chooses it,
 * the arrow keys move between them. 'New cat' asks for the name on the spot; the cat is made once the
 * picture is posted, with it as the first sighting. A household cat the viewer does not care for is
 * not offered (only its caretakers link pictures to it, decision 022); the address's one says why. While
 * it is missing it is offered, and chosen the form says that only its caretakers will see the link.
 */
export function CatSuggestions({
  near,
  pinned,
  choice,
  onChoice,
  newName,
  onNewName,
  newNameError,
}: CatSuggestionsProps) {
  const name = useId();
  const suggestions = useCatSuggestions(near);
  const newNameRef = useRef<HTMLInputElement>(null);
  const focusNewName = useRef(false);
  const t = useTranslate();

  // A tap on 'New cat' goes on to its name (the phone's keyboard opens); arrowing past it does not.
  useEffect(() => {
    if (choice.kind === 'new' && focusNewName.current) {
      focusNewName.current = false;
      newNameRef.current?.focus();
    }
  }, [choice.kind]);

  const chosen = choice.kind === 'cat' ? choice.cat : null;
  // The address's cat first, then the suggestions; a cat chosen earlier that a corrected place no
  // longer lists stays, after the address's (choosing never moves a card).
  const offered = pinned && mayLinkTo(pinned) ? pinned : null;
  const cats: CatSummary[] = [];
  for (const cat of [offered, ...(suggestions.data?.cats ?? []).filter(mayLinkTo)]) {
    if (cat && !cats.some((c) => c._id === cat._id)) cats.push(cat);
  }
  if (chosen && !cats.some((c) => c._id === chosen._id)) cats.splice(offered ? 1 : 0, 0, chosen);
  const found = suggestions.data?.cats.filter(mayLinkTo).length ?? 0;
  // A missing cat met by chance: its card says so, and linking the picture tells its caretakers.
  const missing = new Set(suggestions.data?.cats.filter((c) => c.missing).map((c) => c._id));
  if (pinned?.missing) missing.add(pinned._id);
  // What the lists say of the chosen cat: a missing household cat someone else cares for is offered,
  // but the link is kept from everyone but its caretakers (decision 022), and the form says so.
  const chosenFacts =
    chosen && [pinned, ...(suggestions.data?.cats ?? [])].find((c) => c?._id === chosen._id);

  let status: ReactNode = null;
  if (near === null) {
    status = null;
  } else if (suggestions.isPending) {
    status = (
      <p className="cat-choice__status">
        <Message id="spot.whichCat.looking" defaultMessage="Looking for cats seen near here..." />
      </p>
    );
  } else if (suggestions.isError) {
    status = (
      <p className="cat-choice__status" role="alert">
        {errorMessage(suggestions.error)}
      </p>
    );
  } else if (found === 0) {
    status = (
      <p className="cat-choice__status">
        <Message id="spot.whichCat.none" defaultMessage="No cat has been seen near here lately." />
      </p>
    );
  }

  const tapNewCat = () => {
    if (choice.kind === 'new') newNameRef.current?.focus();
    else focusNewName.current = true;
  };

  return (
    <fieldset className="cat-choice" aria-busy={suggestions.isFetching}>
      <legend className="cat-choice__legend">
        <Message id="spot.whichCat.legend" defaultMessage="Which cat is this?" />
      </legend>
      {pinned && !offered && (
        <p className="cat-choice__status">
          <Message
            id="spot.whichCat.household"
            defaultMessage="{name} lives with someone: only its caretakers say which pictures show it."
            values={{ name: pinned.name }}
          />
        </p>
      )}
      {status}
      <div className="cat-choice__options">
        {cats.map((cat) => (
          <ChoiceCard
            key={cat._id}
            group={name}
            value={cat._id}
            selected={chosen?._id === cat._id}
            onSelect={() => onChoice({ kind: 'cat', cat })}
            picture={<CatThumb cover={cat.cover} size={56} />}
            label={cat.name}
            tag={missing.has(cat._id) ? <MissingTag /> : null}
          />
        ))}
        <ChoiceCard
          group={name}
          value="new"
          selected={choice.kind === 'new'}
          onSelect={() => onChoice({ kind: 'new' })}
          onTap={tapNewCat}
          picture={
            <span className="cat-choice__icon" aria-hidden="true">
              {SYMBOLS.new}
            </span>
          }
          label={t({ id: 'spot.whichCat.new', defaultMessage: 'New cat' })}
        />
        <ChoiceCard
          group={name}
          value="unsure"
          selected={choice.kind === 'unsure'}
          onSelect={() => onChoice({ kind: 'unsure' })}
          picture={
            <span className="cat-choice__icon" aria-hidden="true">
              {SYMBOLS.unsure}
            </span>
          }
          label={t({ id: 'spot.whichCat.unsure', defaultMessage: 'Not sure' })}
        />
      </div>
      {chosen && chosenFacts && linkSeenByCaretakersOnly(chosenFacts) && (
        <p className="cat-choice__status">
          <Message
            id="spot.whichCat.caretakersOnly"
            defaultMessage="Only {name}'s caretakers will see that your photo shows this cat."
            values={{ name: chosen.name }}
          />
        </p>
      )}
      {choice.kind === 'new' && (
        <TextField
          ref={newNameRef}
          className="cat-choice__new-name"
          label={t({ id: 'spot.whichCat.newName', defaultMessage: "New cat's name" })}
          name="newCatName"
          autoComplete="off"
          maxLength={CAT_PROFILE_NAME_MAX}
          value={newName}
          error={newNameError}
          help={t({
            id: 'spot.whichCat.newNameHelp',
            defaultMessage: 'The cat gets a page of its own, with this picture as its first sighting.',
          })}
          onChange={(e) => onNewName(e.target.value)}
        />
      )}
    </fieldset>
  );
}

interface ChoiceCardProps {
  group: string;
  value: string;
  selected: boolean;
  onSelect: () => void;
  /** For a pointer's tap only (the label's own click carries a click count; a key press's does not). */
  onTap?: () => void;
  picture: ReactNode;
  label: string;
  /** Under the name, part of the choice's name for screen readers (a missing cat's tag). */
  tag?: ReactNode;
}

/** One choice: a native radio button (its group's keyboard and screen-reader behaviour) as a card. */
function ChoiceCard({ group, value, selected, onSelect, onTap, picture, label, tag }: ChoiceCardProps) {
  return (
    <label className="cat-choice__option" onClick={onTap && ((e: MouseEvent) => e.detail > 0 && onTap())}>
      <input
        type="radio"
        name={group}
        className="cat-choice__input"
        value={value}
        checked={selected}
        onChange={onSelect}
      />
      {picture}
      <span className="cat-choice__name">{label}</span>
      {tag}
      {selected && (
        <span className="cat-choice__tick" aria-hidden="true">
          <CheckIcon size={16} />
        </span>
      )}
    </label>
  );
}
