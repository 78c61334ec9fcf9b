/** The custom scheme the renderer is loaded from (never file://, never a remote URL). */
export const appScheme = 'app';

/** The host of every renderer URL: `app://vigil/…`. */
export const appHost = 'vigil';

/** The origin of the renderer's pages. */
export const appOrigin = `${appScheme}://${appHost}`;

/** The page the main window loads. */
export const appEntryUrl = `${appOrigin}/index.html`;
