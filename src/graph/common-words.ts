/**
 * Words that are never names on their own, in English and the languages memories are most often
 * written in besides (German, French, Spanish, Italian, Portuguese, Dutch): the names of months
 * and weekdays, the words of the clock, and function words (articles, pronouns, prepositions,
 * conjunctions, common adverbs and interjections). The English tagger reads a capital letter as
 * a sign of a name; these lists say when it is not one ("Sonntag", "Uhr", "lundi", "Can", "Im").
 * Also which of those languages a text is written in, by its distinctive function words, since a
 * German text capitalises every noun and a French or Spanish one has no English words to go by.
 */

const words = (text: string): ReadonlySet<string> => new Set(text.trim().split(/\s+/u));

/** Months and weekdays, with common short forms. */
const CALENDAR = words(`
  january february march april may june july august september october november december
  monday tuesday wednesday thursday friday saturday sunday
  januar februar märz maerz juni juli oktober dezember
  montag dienstag mittwoch donnerstag freitag samstag sonnabend sonntag
  janvier février fevrier mars avril mai juin juillet août aout septembre octobre novembre décembre decembre
  lundi mardi mercredi jeudi vendredi samedi dimanche
  enero febrero marzo abril mayo junio julio agosto septiembre setiembre octubre noviembre diciembre
  lunes martes miércoles miercoles jueves viernes sábado sabado domingo
  gennaio febbraio aprile maggio giugno luglio settembre ottobre dicembre
  lunedì lunedi martedì martedi mercoledì mercoledi giovedì giovedi venerdì venerdi sabato
  janeiro fevereiro março marco maio junho julho setembro outubro novembro dezembro
  segunda terça terca quarta quinta sexta
  januari februari maart mei augustus oktober
  maandag dinsdag woensdag donderdag vrijdag zaterdag zondag
`);

/** The clock and the calendar's units ("um 3 Uhr", "à 10 heures"). */
const TIME_WORDS = words(`
  uhr stunde stunden minute minuten tag tage woche wochen monat monate jahr jahre heute morgen gestern abend nacht
  heure heures jour jours semaine semaines mois an ans année annee aujourd'hui demain hier soir matin
  hora horas día dia días dias semana semanas mes meses año ano años hoy mañana manana ayer noche tarde
  ore giorno giorni settimana mese anno anni oggi domani ieri sera
  dias hoje amanhã amanha ontem
  uur uren dag dagen week weken maand jaar vandaag gisteren
`);

/** English function words and the interjections a turn opens with. */
const ENGLISH = words(`
  a an the this that these those it its it's i i'm im i've ive i'd i'll me my mine you your yours he him his she her hers
  we us our ours they them their theirs who whom whose what which when where why how
  and or but nor so yet if then than because though although while whereas unless until since as
  of in on at to for from by with without about into onto over under between through during before after above below
  up down out off again further once
  is am are was were be been being do does did have has had can could may might must shall should will would
  not no yes yeah yep nope ok okay oh hey hi hello wow thanks thank please sorry well also just too very really
  here there now anyway anyways maybe perhaps actually basically
`);

/** Function words of each other language: the ones that also read as English words are left out, so English text never looks foreign. */
const FOREIGN: Readonly<Record<string, ReadonlySet<string>>> = {
  de: words(`
    der das und ist ich nicht ein eine einen einem einer mit um im zu zum zur auf für fuer den dem des wir sie es
    jeden jede jeder habe haben hat sind wird werden auch noch nach bei beim vom oder aber wenn dass daß wie mein meine
    dein deine uns euch sich kein keine schon sehr nur doch mal bitte danke ja nein gibt ab aus durch gegen ohne über ueber
  `),
  fr: words(`
    le la les un une des du et est sont je tu il elle nous vous ils elles ce cette ces mon ma mes ton ta tes son sa ses
    notre votre leur leurs avec pour dans sur pas mais ou où donc qui que quoi quand comment pourquoi très tres aussi
    avons avez ont suis es sommes êtes etes au aux chez merci oui non bonjour
  `),
  es: words(`
    el la los las un una unos unas y es son yo tú tu él ella nosotros vosotros ellos ellas mi mis tus su sus nuestro
    nuestra con para por en del al pero porque qué que cuándo cuando cómo como dónde donde muy también tambien hay
    estoy está esta estamos están fue gracias sí hola
  `),
  it: words(`
    il lo la gli le uno una e è sono io tu lui lei noi voi loro mio mia miei tuo tua suo sua nostro con per nel nella
    del della dei degli ma perché perche che chi quando come dove molto anche sempre grazie ciao
  `),
  pt: words(`
    o os a as um uma uns umas e é são eu tu ele ela nós vós eles elas meu minha teu tua seu sua nosso nossa com para
    por em no na nos nas do da dos das mas porque que quando como onde muito também tambem obrigado obrigada sim olá
  `),
  nl: words(`
    de het een en is zijn ik jij je hij zij wij jullie ze mijn jouw zijn haar ons onze met voor naar van op niet maar
    want dat wat wie wanneer hoe waar heel ook bedankt dank ja nee hallo
  `),
};

/** All the foreign function words, for the test of a single word. */
const FOREIGN_WORDS: ReadonlySet<string> = new Set(Object.values(FOREIGN).flatMap((set) => [...set]));

/** Whether `word` (any case) names a month, a weekday or a unit of the clock or calendar, in one of the languages. */
export function isCalendarWord(word: string): boolean {
  const lower = word.toLowerCase();
  return CALENDAR.has(lower) || TIME_WORDS.has(lower);
}

/** Whether `word` (any case) is a function word or a common interjection of one of the languages. */
export function isFunctionWord(word: string): boolean {
  const lower = word.toLowerCase();
  return ENGLISH.has(lower) || FOREIGN_WORDS.has(lower);
}

/**
 * The language other than English `text` is written in, when at least two of its distinct words
 * are that language's and outnumber its English function words; otherwise undefined.
 */
export function foreignLanguageOf(text: string): string | undefined {
  const seen = new Set(text.toLowerCase().match(/[\p{L}'’]+/gu) ?? []);
  let english = 0;
  for (const word of seen) if (ENGLISH.has(word)) english++;
  let best: [string, number] | undefined;
  for (const [language, set] of Object.entries(FOREIGN)) {
    let count = 0;
    for (const word of seen) if (set.has(word) || (language === 'de' && (CALENDAR.has(word) || TIME_WORDS.has(word)))) count++;
    if (count >= 2 && count > english && (!best || count > best[1])) best = [language, count];
  }
  return best?.[0];
}
