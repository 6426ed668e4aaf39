import { Link } from 'react-router';
import type { Cat } from '@cats/contracts';
import { Message, useTranslate } from '../../../i18n/message.tsx';
import { COAT_COLOUR_LABELS, LIVING_LABELS, YES_NO_UNKNOWN_LABELS } from './cat-labels.ts';

/** What is known about the cat: coat, ear tip, neutering, where it lives, the description, caretakers. */
export function CatFacts({ cat }: { cat: Cat }) {
  const t = useTranslate();
  return (
    <div className="cat-facts">
      {cat.description && <p className="cat-facts__description">{cat.description}</p>}
      <dl className="cat-facts__list">
        <div className="cat-facts__row">
          <dt>
            <Message id="cats.facts.coat" defaultMessage="Coat" />
          </dt>
          <dd>
            {cat.coatColours.length === 0 ? (
              <Message id="cats.facts.coatUnknown" defaultMessage="Not described yet" />
            ) : (
              <ul
                className="cat-chips"
                aria-label={t({ id: 'cats.facts.coatList', defaultMessage: 'Coat colours and pattern' })}
              >
                {cat.coatColours.map((colour) => (
                  <li key={colour} className="cat-chip">
                    {t(COAT_COLOUR_LABELS[colour])}
                  </li>
                ))}
              </ul>
            )}
          </dd>
        </div>
        <div className="cat-facts__row">
          <dt>
            <Message id="cats.facts.earTipped" defaultMessage="Ear-tipped" />
          </dt>
          <dd>{t(YES_NO_UNKNOWN_LABELS[cat.earTipped])}</dd>
        </div>
        <div className="cat-facts__row">
          <dt>
            <Message id="cats.facts.neutered" defaultMessage="Neutered" />
          </dt>
          <dd>{t(YES_NO_UNKNOWN_LABELS[cat.neutered])}</dd>
        </div>
        <div className="cat-facts__row">
          <dt>
            <Message id="cats.facts.home" defaultMessage="Home" />
          </dt>
          <dd>{t(LIVING_LABELS[cat.living])}</dd>
        </div>
        {cat.caretakers.length > 0 && (
          <div className="cat-facts__row">
            <dt>
              <Message id="cats.facts.caretakers" defaultMessage="Caretakers" />
            </dt>
            <dd>
              <ul className="cat-facts__people">
                {cat.caretakers.map((user) => (
                  <li key={user._id}>
                    <Link to={`/profile/${encodeURIComponent(user._id)}`}>{user.username}</Link>
                  </li>
                ))}
              </ul>
            </dd>
          </div>
        )}
      </dl>
    </div>
  );
}
