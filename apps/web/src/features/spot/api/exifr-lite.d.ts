// exifr's lite build (JPEG, PNG, HEIC, TIFF; IFD0, EXIF and GPS blocks) has the full build's API.
declare module 'exifr/dist/lite.esm.mjs' {
  import exifr from 'exifr';
  export default exifr;
}
