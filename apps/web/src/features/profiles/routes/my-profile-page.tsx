import { useAuth } from '../../../lib/auth-store.ts';
import { LoadError } from '../../../components/load-error.tsx';
import { useMyProfile } from '../../../lib/my-profile.ts';
import { PictureUpload } from '../components/picture-upload.tsx';
import { ProfilePicture } from '../components/profile-picture.tsx';
import { ProfilePosts } from '../components/profile-posts.tsx';
import { Message, useTranslate } from '../../../i18n/message.tsx';
import '../profiles.css';
import { LoadingSkeleton, ProfileHeaderSkeleton } from '../../../components/skeleton/skeleton.tsx';

/** Spec section 2, own profile: username, picture (with upload and crop), and 'Pictures'. */
export default function MyProfilePage() {
  const { userId } = useAuth();
  const profile = useMyProfile();
  const me = profile.data;
  const t = useTranslate();
  return (
    <div className="profile-page">
      <section
        className="profile-page__head"
        aria-label={t({ id: 'profiles.region', defaultMessage: 'Profile' })}
      >
        {me ? (
          <>
            <h1>{me.username}</h1>
            <ProfilePicture url={me.profilePicUrl} name={me.username} />
            <PictureUpload hasPicture={Boolean(me.profilePicUrl)} />
          </>
        ) : profile.isError ? (
          <LoadError error={profile.error} onRetry={() => void profile.refetch()} />
        ) : (
          <LoadingSkeleton label={t({ id: 'profiles.loading', defaultMessage: 'Loading profile...' })}>
            <ProfileHeaderSkeleton />
          </LoadingSkeleton>
        )}
      </section>
      <section className="profile-page__pictures" aria-labelledby="profile-pictures">
        <h2 id="profile-pictures">
          <Message id="profiles.pictures" defaultMessage="Pictures" />
        </h2>
        {me && (
          <p className="profile-page__privacy">
            {me.exactPublicLocation ? (
              <Message
                id="profiles.me.exactLocations"
                defaultMessage="Pictures with the location on appear on the map at their exact spot."
              />
            ) : (
              <Message
                id="profiles.me.approximateLocations"
                defaultMessage="Pictures with the location on appear on the map to within about 500 m; only you see the exact spot."
              />
            )}
          </p>
        )}
        {userId && (
          <ProfilePosts
            userId={userId}
            own
            emptyText={t({
              id: 'profiles.me.empty',
              defaultMessage: 'You have not posted any pictures yet.',
            })}
          />
        )}
      </section>
    </div>
  );
}
