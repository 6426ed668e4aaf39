import { useRef, useState } from 'react';
import type { PostImage as PostImageData } from '@cats/contracts';
import { Modal } from '../modal.tsx';
import './full-size-image.css';
import { Message, useTranslate } from '../../i18n/message.tsx';

interface FullSizeImageProps {
  image: PostImageData;
  alt: string;
  onClose: () => void;
}

/**
 * A photo at full size (the 1600 px variant) over everything else, closed with Escape, the Close
 * button or a tap beside it. On phones the browser's own pinch zoom works inside it (touch-action
 * allows it); a tap on the photo switches between fitting the screen and its full width, scrolled
 * to the spot tapped.
 */
export function FullSizeImage({ image, alt, onClose }: FullSizeImageProps) {
  const t = useTranslate();
  const [zoomed, setZoomed] = useState(false);
  const stageRef = useRef<HTMLDivElement>(null);
  const closeRef = useRef<HTMLButtonElement>(null);
  const src = image.variants['1600'] ?? image.variants['800'] ?? Object.values(image.variants)[0];

  const toggleZoom = (e: React.MouseEvent<HTMLButtonElement>) => {
    const stage = stageRef.current;
    const rect = e.currentTarget.getBoundingClientRect();
    // Where the tap fell on the photo, as a fraction of it: the zoomed photo is scrolled to show it.
    const fx = rect.width ? (e.clientX - rect.left) / rect.width : 0.5;
    const fy = rect.height ? (e.clientY - rect.top) / rect.height : 0.5;
    setZoomed((z) => !z);
    if (!zoomed && stage) {
      requestAnimationFrame(() => {
        stage.scrollLeft = fx * stage.scrollWidth - stage.clientWidth / 2;
        stage.scrollTop = fy * stage.scrollHeight - stage.clientHeight / 2;
      });
    }
  };

  return (
    <Modal title={alt} hideTitle onClose={onClose} className="image-viewer" initialFocusRef={closeRef}>
      <div
        ref={stageRef}
        className={`image-viewer__stage${zoomed ? ' image-viewer__stage--zoomed' : ''}`}
        onMouseDown={(e) => {
          // A press on the dark area around the photo closes, as on the backdrop of other dialogs.
          if (e.target === e.currentTarget) onClose();
        }}
      >
        <button
          type="button"
          className="image-viewer__zoom"
          aria-pressed={zoomed}
          aria-label={
            zoomed
              ? t({ id: 'fullSize.fit', defaultMessage: 'Fit to screen' })
              : t({ id: 'fullSize.zoomIn', defaultMessage: 'Zoom in' })
          }
          onClick={toggleZoom}
        >
          <img
            className="image-viewer__img"
            src={src}
            alt={alt}
            width={image.width}
            height={image.height}
            decoding="async"
          />
        </button>
      </div>
      <button ref={closeRef} type="button" className="image-viewer__close" onClick={onClose}>
        <Message id="fullSize.close" defaultMessage="Close" />
      </button>
    </Modal>
  );
}
