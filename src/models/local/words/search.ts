/** Searches by several criteria: how a sentence names a person, the fields people go into, and the words that are no criterion. */
import { type Phrases } from './grammar';

/** How a search sentence names a person: "directed by Holt", "by Le Guin", "starring Tom Hanks". */
export const PERSON_ROLES: Phrases = ['directed\\s+by', 'written\\s+by', 'authored\\s+by', 'composed\\s+by', 'by', 'starring', 'featuring', 'with'];
/** A name as people write it: capitalised words ("Le Guin", "O’Brien", "J.R.R. Tolkien"). */
export const PERSON_NAME = "(?:[A-Z][\\p{L}'’.-]*)(?:\\s+[A-Z][\\p{L}'’.-]*)*";
/** The field a person goes into, by how the sentence names them; the first that fits. */
export const PERSON_FIELDS: readonly { said: Phrases; field: Phrases }[] = [
  { said: ['starring', 'featuring', 'with'], field: ['actor', 'actress', 'star', 'cast', 'starring'] },
  { said: ['directed'], field: ['director'] },
  { said: ['written', 'authored'], field: ['author', 'writer'] },
];
/** Any field a person may go into, when the sentence says only "by". */
export const PERSON_FIELD_NAMES: Phrases = ['director', 'author', 'writer', 'artist', 'by', 'creator', 'composer'];
/** The names of a search form's button. */
export const SEARCH_BUTTONS: Phrases = ['search', 'find', 'go', 'look up', 'submit', 'show results', 'apply'];

/** Words a search sentence is made of besides its criteria: asking, joining, naming a criterion, what is searched for. */
export const SEARCH_FILLER: readonly string[] = [
  ...['find', 'search', 'for', 'look', 'up', 'show', 'me', 'browse', 'list'],
  ...['the', 'a', 'an', 'all', 'any', 'some', 'from', 'in', 'of', 'and', 'with', 'that', 'are', 'were'],
  ...['title', 'titled', 'called', 'named', 'by', 'directed', 'written', 'authored', 'released', 'published', 'made', 'year'],
  ...['movie', 'film', 'book', 'item', 'result', 'product', 'record', 'song', 'album', 'track', 'article', 'paper', 'game', 'app', 'event'],
];

/** Where people are listed one record after another ("find Lynne in the contact book"). */
export const RECORD_BOOKS: Phrases = [
  ...['contact book', 'contacts?', 'contact list', 'phone ?book', 'address book', 'directory', 'staff directory', 'people list'],
  ...['employee directory', 'member list', 'members'],
];
/** A record's fields by the words an instruction uses, each with the labels a page gives it. */
export const RECORD_FIELDS: Readonly<Record<string, { said: Phrases; label: Phrases }>> = {
  phone: {
    said: ['phone(?: number)?', 'telephone(?: number)?', 'number', 'mobile(?: number)?', 'cell(?: number)?'],
    label: ['phone', 'tel', 'telephone', 'mobile', 'cell'],
  },
  email: { said: ['e-?mail(?: address)?'], label: ['e-?mail', 'mail'] },
  address: { said: ['(?:street |home |postal )?address', 'location'], label: ['address', 'addr', 'street', 'location'] },
  website: { said: ['website', 'web ?site', 'homepage', 'site', 'url'], label: ['website', 'web', 'site', 'url', 'homepage'] },
};
/** What a search is for, said after its kind ("adventure movies", "jazz albums"): the kind goes in a genre field. */
export const SEARCHED_THINGS: Phrases = ['movies?', 'films?', 'books?', 'shows?', 'series', 'songs?', 'albums?', 'tracks?', 'games?', 'novels?'];
