/**
 * One made-up person that every fake renders in its own wire format, so a test can say "this
 * customer is a CEO with a $1M home" once and read it back from any provider. The defaults
 * describe an obvious VIP; override any field per behaviour.
 */

export interface FakePerson {
  firstName: string;
  lastName: string;
  title: string;
  /** People Data Labs' canonical levels for the title. */
  pdlLevels: string[];
  /** How sure People Data Labs is that its record is this person (1–10). */
  pdlLikelihood: number;
  company: string;
  companyDomain: string;
  /** PDL's band, e.g. "1001-5000". */
  companySize: string;
  /** PDL's band, e.g. "$100M-$250M". */
  companyRevenue: string;
  /** PDL's salary band, e.g. "150,000-250,000" or ">250,000". */
  salary: string;
  city: string;
  region: string;
  country: string;
  linkedin: string;
  linkedinFollowers: number;
  twitter: string;
  twitterFollowers: number;
  /** FullContact insights bands. */
  householdIncome: string;
  netWorth: string;
  homeValue: string;
}

export function fakePerson(email: string, overrides: Partial<FakePerson> = {}): FakePerson {
  const local = email.split("@")[0] ?? "alex.morgan";
  const [first = "alex", last = "morgan"] = local
    .split(/[._-]+/)
    .filter((p) => /^[a-z]+$/i.test(p));
  const handle = `${first}-${last}`.toLowerCase();
  return {
    firstName: capitalise(first),
    lastName: capitalise(last),
    title: "Chief Executive Officer",
    pdlLevels: ["cxo"],
    pdlLikelihood: 9,
    company: "Acme Corporation",
    companyDomain: "acme.com",
    companySize: "1001-5000",
    companyRevenue: "$100M-$250M",
    salary: ">250,000",
    city: "San Francisco",
    region: "California",
    country: "United States",
    linkedin: handle,
    linkedinFollowers: 12_400,
    twitter: `${first}${last}`.toLowerCase(),
    twitterFollowers: 48_200,
    householdIncome: "$250,000+",
    netWorth: "$1,000,000 - $1,999,999",
    homeValue: "$1,000,000 - $1,499,999",
    ...overrides,
  };
}

export function fullName(person: FakePerson): string {
  return `${person.firstName} ${person.lastName}`;
}

function capitalise(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1).toLowerCase();
}

/** The query Velvet sends for a customer with this e-mail. */
export function providerQuery(email: string): {
  email: string;
  emailNormalized: string;
  firstName: string;
  lastName: string;
  phone: string | null;
} {
  const person = fakePerson(email);
  return {
    email,
    emailNormalized: email.trim().toLowerCase(),
    firstName: person.firstName,
    lastName: person.lastName,
    phone: null,
  };
}
