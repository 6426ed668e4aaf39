import { useCallback, useId, useState } from 'react';
import Cropper, { type Area } from 'react-easy-crop';
import { Button } from '../../button.tsx';
import { Modal } from '../../modal.tsx';
import { cropToJpeg } from './crop-image.ts';
import './image-crop-dialog.css';
import { Message } from '../../../i18n/message.tsx';

interface ImageCropDialogProps {
  /** Object URL of the chosen picture. */
  src: string;
  title: string;
  onCropped: (jpeg: Blob) => void;
  onCancel: () => void;
}

/** Spec section 5: a square cropper, zoom 1 to 3 in steps of 0.01, exported as JPEG. Open while mounted. */
export function ImageCropDialog({ src, title, onCropped, onCancel }: ImageCropDialogProps) {
  const zoomId = useId();
  const [crop, setCrop] = useState({ x: 0, y: 0 });
  const [zoom, setZoom] = useState(1);
  const [area, setArea] = useState<Area | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const onCropComplete = useCallback((_: Area, pixels: Area) => setArea(pixels), []);

  const confirm = async () => {
    if (!area) return;
    setBusy(true);
    setError(null);
    try {
      onCropped(await cropToJpeg(src, area));
    } catch (err) {
      setError((err as Error).message);
      setBusy(false);
    }
  };

  return (
    <Modal
      title={title}
      className="crop-dialog"
      onClose={onCancel}
      dismissible={!busy}
      actions={
        <>
          <Button variant="secondary" onClick={onCancel} disabled={busy}>
            <Message id="crop.cancel" defaultMessage="Cancel" />
          </Button>
          <Button variant="primary" disabled={!area || busy} onClick={() => void confirm()}>
            <Message id="crop.crop" defaultMessage="Crop" />
          </Button>
        </>
      }
    >
      <div className="crop-dialog__area">
        <Cropper
          image={src}
          crop={crop}
          zoom={zoom}
          aspect={1}
          minZoom={1}
          maxZoom={3}
          zoomSpeed={0.5}
          onCropChange={setCrop}
          onZoomChange={setZoom}
          onCropComplete={onCropComplete}
          mediaProps={{ alt: 'Picture to crop' }}
        />
      </div>
      <div className="crop-dialog__zoom">
        <label htmlFor={zoomId}>
          <Message id="crop.zoom" defaultMessage="Zoom" />
        </label>
        <input
          id={zoomId}
          type="range"
          min={1}
          max={3}
          step={0.01}
          value={zoom}
          onChange={(e) => setZoom(Number(e.target.value))}
        />
      </div>
      {error && (
        <p className="crop-dialog__error" role="alert">
          {error}
        </p>
      )}
    </Modal>
  );
}
