/**
 * Well-known disposable / throw-away mailbox domains. A TypeScript module rather than a data file so the
 * build ships it without a copy step. Not exhaustive: operators can extend it with `extraDisposableDomains`.
 */
const DOMAINS = `
0-mail.com 10minutemail.com 10minutemail.net 10minutemail.co.uk 20minutemail.com 33mail.com
anonbox.net anonymbox.com armyspy.com binkmail.com bobmail.info bugmenot.com burnermail.io
byom.de chacuo.net cuvox.de dayrep.com deadaddress.com despam.it discard.email discardmail.com
discardmail.de dispostable.com dodgit.com dropmail.me e4ward.com einrot.com emailfake.com
emailondeck.com emailtemporanea.net emailtemporario.com.br fakeinbox.com fakemail.net fakemailgenerator.com
fastacura.com filzmail.com fleckens.hu getairmail.com getnada.com gishpuppy.com grr.la
guerrillamail.biz guerrillamail.com guerrillamail.de guerrillamail.info guerrillamail.net guerrillamail.org
guerrillamailblock.com gustr.com harakirimail.com hmamail.com hulapla.de incognitomail.org inboxalias.com
inboxbear.com jetable.org jourrapide.com kasmail.com klzlk.com koszmail.pl kurzepost.de
lroid.com mailcatch.com maildrop.cc mailexpire.com mailforspam.com mailinator.com mailinator.net
mailinator2.com mailmetrash.com mailnesia.com mailnull.com mailsac.com mailtemp.info mintemail.com
mohmal.com moakt.com mt2015.com mytemp.email mytrashmail.com nada.email nospam.ze.tc
nowmymail.com objectmail.com obobbo.com one-time.email oneoffemail.com pokemail.net proxymail.eu
rcpt.at rhyta.com rmqkr.net s0ny.net safetymail.info sharklasers.com shieldemail.com
sofimail.com spam4.me spamavert.com spambog.com spambox.us spamex.com spamfree24.org
spamgourmet.com spamhole.com spamify.com spaml.de spamspot.com superrito.com suremail.info
teleworm.us temp-mail.io temp-mail.org tempail.com tempinbox.com tempm.com tempmail.com
tempmail.de tempmail.net tempmailaddress.com tempmailo.com tempr.email tempsky.com
throwam.com throwawaymail.com trash-mail.com trash-mail.de trashmail.at trashmail.com
trashmail.de trashmail.io trashmail.me trashmail.net trashmailer.com trbvm.com tyldd.com
wegwerfmail.de wegwerfmail.net wegwerfmail.org wh4f.org yopmail.com yopmail.fr yopmail.net
zetmail.com zoemail.org mail-temp.com minuteinbox.com inboxkitten.com emailnax.com
`;

const builtIn = new Set(DOMAINS.split(/\s+/).filter(Boolean));

/** True when the domain, or a parent domain of it, is a known disposable mailbox provider. */
export function isDisposableDomain(domain: string, extra: ReadonlySet<string> = new Set()): boolean {
  const labels = domain.toLowerCase().split('.');
  for (let i = 0; i < labels.length - 1; i++) {
    const candidate = labels.slice(i).join('.');
    if (builtIn.has(candidate) || extra.has(candidate)) return true;
  }
  return false;
}

export const disposableDomainCount = builtIn.size;
