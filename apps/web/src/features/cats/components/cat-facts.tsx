import { Link } from 'react-router';
import type { Cat } from '@cats/contracts';
import { COAT_COLOUR_LABELS, LIVING_LABELS, YES_NO_UNKNOWN_LABELS } from './cat-labels.ts';

/** What is known about the cat: coat, ear tip, neutering, where it lives, the description, caretakers. */
export function CatFacts({ cat }: { cat: Cat }) {
  return (
    <div className="cat-facts">
      {cat.description && <p className="cat-facts__description">{cat.description}</p>}
      <dl className="cat-facts__list">
        <div className="cat-facts__row">
          <dt>Coat</dt>
          <dd>
            {cat.coatColours.length === 0 ? (
              'Not described yet'
            ) : (
              <ul className="cat-chips" aria-label="Coat colours and pattern">
                {cat.coatColours.map((colour) => (
                  <li key={colour} className="cat-chip">
                    {COAT_COLOUR_LABELS[colour]}
                  </li>
                ))}
              </ul>
            )}
          </dd>
        </div>
        <div className="cat-facts__row">
          <dt>Ear-tipped</dt>
          <dd>{YES_NO_UNKNOWN_LABELS[cat.earTipped]}</dd>
        </div>
        <div className="cat-facts__row">
          <dt>Neutered</dt>
          <dd>{YES_NO_UNKNOWN_LABELS[cat.neutered]}</dd>
        </div>
        <div className="cat-facts__row">
          <dt>Home</dt>
          <dd>{LIVING_LABELS[cat.living]}</dd>
        </div>
        {cat.caretakers.length > 0 && (
          <div className="cat-facts__row">
            <dt>Caretakers</dt>
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
