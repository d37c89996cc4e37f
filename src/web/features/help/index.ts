/** The help centre's public entry: the suggestions the ticket form shows. */
export { TicketSuggestions } from './components/ticket-suggestions';
