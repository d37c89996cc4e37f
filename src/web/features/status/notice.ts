/**
 * The status feature's notice for the pages that use a component (the top-up form, the exchange): an
 * entry of its own so those pages do not load the status page's lists and their styles with it.
 */
export { ComponentNotice } from './components/component-notice';
