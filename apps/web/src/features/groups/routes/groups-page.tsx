import { useState } from 'react';
import { InfoIcon } from '../../../components/icons.tsx';
import { CreateGroupForm } from '../components/create-group-form.tsx';
import { GroupList } from '../components/group-list.tsx';
import { JoinGroupForm } from '../components/join-group-form.tsx';
import { PendingRequests } from '../components/pending-requests.tsx';
import { ResultModal } from '../components/result-modal.tsx';
import { Message } from '../../../i18n/message.tsx';
import '../groups.css';

/** Spec section 2, Groups: join or create a group, one's requests waiting for an answer, and one's groups. */
export default function GroupsPage() {
  const [result, setResult] = useState<string | null>(null);
  return (
    <div className="page groups-page">
      <h1>
        <Message id="groups.home.title" defaultMessage="Join or create a group" />
      </h1>
      <ul className="groups-page__bullets">
        <li>
          <Message
            id="groups.home.bullet.friends"
            defaultMessage="Friends can form a group to follow the cats of their neighbourhood together."
          />
        </li>
        <li>
          <Message
            id="groups.home.bullet.share"
            defaultMessage="Share your cat pictures and their locations with the groups you choose."
          />
        </li>
        <li>
          <Message
            id="groups.home.bullet.feed"
            defaultMessage="Every group has its own feed and map of the pictures shared with it."
          />
        </li>
      </ul>
      <p className="notice notice--info groups-page__notice" role="note">
        <InfoIcon size={20} />
        <span>
          <Message
            id="groups.home.notice"
            defaultMessage="Every member of a group can see the exact location of the pictures shared with it."
          />
        </span>
      </p>
      <div className="groups-page__forms">
        <JoinGroupForm onResult={setResult} />
        <CreateGroupForm onResult={setResult} />
      </div>
      <PendingRequests onResult={setResult} />
      <GroupList />
      <ResultModal message={result} onClose={() => setResult(null)} />
    </div>
  );
}
