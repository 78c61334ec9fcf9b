/** The product's name: window titles, the macOS app menu, and the default data folder's name. */
export const productName = 'Vigil';

/** The application id (electron-builder's appId; Windows' AppUserModelID, which notifications need). */
export const applicationId = 'dev.vigil.app';
