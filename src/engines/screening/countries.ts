import { isCountryAlpha2 } from '../../platform/countries.js';

// Generated once from Debian iso-codes (iso_3166-1.json) plus the spellings that OFAC, UN and UK lists use.
// Keys are normalised (ASCII, lower case, punctuation as single spaces).
const TABLE =
  'abw=AW|afg=AF|afghanistan=AF|ago=AO|aia=AI|ala=AX|aland islands=AX|alb=AL|albania=AL|algeria=DZ|' +
  'american samoa=AS|and=AD|andorra=AD|angola=AO|anguilla=AI|antarctica=AQ|antigua and barbuda=AG|' +
  'arab republic of egypt=EG|are=AE|arg=AR|argentina=AR|argentine republic=AR|arm=AM|armenia=AM|aruba=AW|asm=AS|' +
  'ata=AQ|atf=TF|atg=AG|aus=AU|australia=AU|austria=AT|aut=AT|aze=AZ|azerbaijan=AZ|bahamas=BS|bahamas the=BS|' +
  'bahrain=BH|bangladesh=BD|barbados=BB|bdi=BI|bel=BE|belarus=BY|belgium=BE|belize=BZ|ben=BJ|benin=BJ|bermuda=BM|' +
  'bes=BQ|bfa=BF|bgd=BD|bgr=BG|bhr=BH|bhs=BS|bhutan=BT|bih=BA|blm=BL|blr=BY|blz=BZ|bmu=BM|bol=BO|' +
  'bolivarian republic of venezuela=VE|bolivia=BO|bolivia plurinational state of=BO|' +
  'bonaire sint eustatius and saba=BQ|bosnia and herzegovina=BA|botswana=BW|bouvet island=BV|bra=BR|brazil=BR|' +
  'brb=BB|british indian ocean territory=IO|british virgin islands=VG|brn=BN|brunei=BN|brunei darussalam=BN|' +
  'btn=BT|bulgaria=BG|burkina faso=BF|burma=MM|burundi=BI|bvt=BV|bwa=BW|cabo verde=CV|caf=CF|cambodia=KH|' +
  'cameroon=CM|can=CA|canada=CA|cape verde=CV|cayman islands=KY|cck=CC|central african republic=CF|chad=TD|' +
  'che=CH|chile=CL|china=CN|china hong kong special administrative region=HK|chl=CL|chn=CN|christmas island=CX|' +
  'civ=CI|cmr=CM|cocos keeling islands=CC|cod=CD|cog=CG|cok=CK|col=CO|colombia=CO|com=KM|' +
  'commonwealth of dominica=DM|commonwealth of the bahamas=BS|commonwealth of the northern mariana islands=MP|' +
  'comoros=KM|congo=CG|congo democratic republic of the=CD|congo republic of the=CG|' +
  'congo the democratic republic of the=CD|cook islands=CK|costa rica=CR|cote d ivoire=CI|cpv=CV|cri=CR|' +
  'crimea=UA|croatia=HR|cub=CU|cuba=CU|curacao=CW|cuw=CW|cxr=CX|cym=KY|cyp=CY|cyprus=CY|cze=CZ|czech republic=CZ|' +
  'czechia=CZ|democratic people s republic of korea=KP|democratic republic of sao tome and principe=ST|' +
  'democratic republic of the congo=CD|democratic republic of timor leste=TL|' +
  'democratic socialist republic of sri lanka=LK|denmark=DK|deu=DE|dji=DJ|djibouti=DJ|dma=DM|dnk=DK|dom=DO|' +
  'dominica=DM|dominican republic=DO|dprk=KP|drc=CD|dza=DZ|east timor=TL|eastern republic of uruguay=UY|ecu=EC|' +
  'ecuador=EC|egy=EG|egypt=EG|el salvador=SV|equatorial guinea=GQ|eri=ER|eritrea=ER|esh=EH|esp=ES|est=EE|' +
  'estonia=EE|eswatini=SZ|eth=ET|ethiopia=ET|falkland islands malvinas=FK|faroe islands=FO|' +
  'federal democratic republic of ethiopia=ET|federal democratic republic of nepal=NP|' +
  'federal republic of germany=DE|federal republic of nigeria=NG|federal republic of somalia=SO|' +
  'federated states of micronesia=FM|federative republic of brazil=BR|fiji=FJ|fin=FI|finland=FI|fji=FJ|flk=FK|' +
  'fra=FR|france=FR|french guiana=GF|french polynesia=PF|french republic=FR|french southern territories=TF|' +
  'fro=FO|fsm=FM|gab=GA|gabon=GA|gabonese republic=GA|gambia=GM|gaza=PS|gbr=GB|geo=GE|georgia=GE|germany=DE|' +
  'ggy=GG|gha=GH|ghana=GH|gib=GI|gibraltar=GI|gin=GN|glp=GP|gmb=GM|gnb=GW|gnq=GQ|grand duchy of luxembourg=LU|' +
  'grc=GR|grd=GD|great britain=GB|greece=GR|greenland=GL|grenada=GD|grl=GL|gtm=GT|guadeloupe=GP|guam=GU|' +
  'guatemala=GT|guernsey=GG|guf=GF|guinea=GN|guinea bissau=GW|gum=GU|guy=GY|guyana=GY|haiti=HT|' +
  'hashemite kingdom of jordan=JO|heard island and mcdonald islands=HM|hellenic republic=GR|hkg=HK|hmd=HM|hnd=HN|' +
  'holy see=VA|holy see vatican city state=VA|honduras=HN|hong kong=HK|' +
  'hong kong special administrative region of china=HK|hrv=HR|hti=HT|hun=HU|hungary=HU|iceland=IS|idn=ID|imn=IM|' +
  'ind=IN|independent state of papua new guinea=PG|independent state of samoa=WS|india=IN|indonesia=ID|iot=IO|' +
  'iran=IR|iran islamic republic of=IR|iraq=IQ|ireland=IE|irl=IE|irn=IR|irq=IQ|isl=IS|' +
  'islamic republic of afghanistan=AF|islamic republic of iran=IR|islamic republic of mauritania=MR|' +
  'islamic republic of pakistan=PK|isle of man=IM|isr=IL|israel=IL|ita=IT|italian republic=IT|italy=IT|' +
  'ivory coast=CI|jam=JM|jamaica=JM|japan=JP|jersey=JE|jey=JE|jor=JO|jordan=JO|jpn=JP|kaz=KZ|kazakhstan=KZ|' +
  'ken=KE|kenya=KE|kgz=KG|khm=KH|kingdom of bahrain=BH|kingdom of belgium=BE|kingdom of bhutan=BT|' +
  'kingdom of cambodia=KH|kingdom of denmark=DK|kingdom of eswatini=SZ|kingdom of lesotho=LS|' +
  'kingdom of morocco=MA|kingdom of norway=NO|kingdom of saudi arabia=SA|kingdom of spain=ES|' +
  'kingdom of sweden=SE|kingdom of thailand=TH|kingdom of the netherlands=NL|kingdom of tonga=TO|kir=KI|' +
  'kiribati=KI|kna=KN|kor=KR|korea democratic people s republic of=KP|korea north=KP|korea republic of=KR|' +
  'korea south=KR|kosovo=XK|kuwait=KW|kwt=KW|kyrgyz republic=KG|kyrgyzstan=KG|lao=LA|' +
  'lao people s democratic republic=LA|laos=LA|latvia=LV|lbn=LB|lbr=LR|lby=LY|lca=LC|lebanese republic=LB|' +
  'lebanon=LB|lesotho=LS|liberia=LR|libya=LY|lie=LI|liechtenstein=LI|lithuania=LT|lka=LK|lso=LS|ltu=LT|lux=LU|' +
  'luxembourg=LU|lva=LV|mac=MO|macao=MO|macao special administrative region of china=MO|macau=MO|macedonia=MK|' +
  'madagascar=MG|maf=MF|malawi=MW|malaysia=MY|maldives=MV|mali=ML|malta=MT|man isle of=IM|mar=MA|' +
  'marshall islands=MH|martinique=MQ|mauritania=MR|mauritius=MU|mayotte=YT|mco=MC|mda=MD|mdg=MG|mdv=MV|mex=MX|' +
  'mexico=MX|mhl=MH|micronesia=FM|micronesia federated states of=FM|mkd=MK|mli=ML|mlt=MT|mmr=MM|mne=ME|mng=MN|' +
  'mnp=MP|moldova=MD|moldova republic of=MD|monaco=MC|mongolia=MN|montenegro=ME|montserrat=MS|morocco=MA|moz=MZ|' +
  'mozambique=MZ|mrt=MR|msr=MS|mtq=MQ|mus=MU|mwi=MW|myanmar=MM|mys=MY|myt=YT|nam=NA|namibia=NA|nauru=NR|ncl=NC|' +
  'nepal=NP|ner=NE|netherlands=NL|netherlands antilles=AN|new caledonia=NC|new zealand=NZ|nfk=NF|nga=NG|nic=NI|' +
  'nicaragua=NI|niger=NE|nigeria=NG|niu=NU|niue=NU|nld=NL|nor=NO|norfolk island=NF|north korea=KP|' +
  'north macedonia=MK|northern mariana islands=MP|norway=NO|npl=NP|nru=NR|nzl=NZ|oman=OM|omn=OM|pak=PK|' +
  'pakistan=PK|palau=PW|palestine=PS|palestine state of=PS|palestinian=PS|pan=PA|panama=PA|papua new guinea=PG|' +
  'paraguay=PY|pcn=PN|people s democratic republic of algeria=DZ|people s republic of bangladesh=BD|' +
  'people s republic of china=CN|per=PE|peru=PE|philippines=PH|phl=PH|pitcairn=PN|' +
  'plurinational state of bolivia=BO|plw=PW|png=PG|pol=PL|poland=PL|portugal=PT|portuguese republic=PT|pri=PR|' +
  'principality of andorra=AD|principality of liechtenstein=LI|principality of monaco=MC|prk=KP|prt=PT|pry=PY|' +
  'pse=PS|puerto rico=PR|pyf=PF|qat=QA|qatar=QA|region crimea=UA|region gaza=PS|region kafia kingi=SS|' +
  'republic of albania=AL|republic of angola=AO|republic of armenia=AM|republic of austria=AT|' +
  'republic of azerbaijan=AZ|republic of belarus=BY|republic of benin=BJ|republic of bosnia and herzegovina=BA|' +
  'republic of botswana=BW|republic of bulgaria=BG|republic of burundi=BI|republic of cabo verde=CV|' +
  'republic of cameroon=CM|republic of chad=TD|republic of chile=CL|republic of colombia=CO|' +
  'republic of costa rica=CR|republic of cote d ivoire=CI|republic of croatia=HR|republic of cuba=CU|' +
  'republic of cyprus=CY|republic of djibouti=DJ|republic of ecuador=EC|republic of el salvador=SV|' +
  'republic of equatorial guinea=GQ|republic of estonia=EE|republic of fiji=FJ|republic of finland=FI|' +
  'republic of ghana=GH|republic of guatemala=GT|republic of guinea=GN|republic of guinea bissau=GW|' +
  'republic of guyana=GY|republic of haiti=HT|republic of honduras=HN|republic of iceland=IS|' +
  'republic of india=IN|republic of indonesia=ID|republic of iraq=IQ|republic of kazakhstan=KZ|' +
  'republic of kenya=KE|republic of kiribati=KI|republic of latvia=LV|republic of liberia=LR|' +
  'republic of lithuania=LT|republic of madagascar=MG|republic of malawi=MW|republic of maldives=MV|' +
  'republic of mali=ML|republic of malta=MT|republic of mauritius=MU|republic of moldova=MD|' +
  'republic of mozambique=MZ|republic of myanmar=MM|republic of namibia=NA|republic of nauru=NR|' +
  'republic of nicaragua=NI|republic of north macedonia=MK|republic of palau=PW|republic of panama=PA|' +
  'republic of paraguay=PY|republic of peru=PE|republic of poland=PL|republic of san marino=SM|' +
  'republic of senegal=SN|republic of serbia=RS|republic of seychelles=SC|republic of sierra leone=SL|' +
  'republic of singapore=SG|republic of slovenia=SI|republic of south africa=ZA|republic of south sudan=SS|' +
  'republic of suriname=SR|republic of tajikistan=TJ|republic of the congo=CG|republic of the gambia=GM|' +
  'republic of the marshall islands=MH|republic of the niger=NE|republic of the philippines=PH|' +
  'republic of the sudan=SD|republic of trinidad and tobago=TT|republic of tunisia=TN|republic of turkiye=TR|' +
  'republic of uganda=UG|republic of uzbekistan=UZ|republic of vanuatu=VU|republic of yemen=YE|' +
  'republic of zambia=ZM|republic of zimbabwe=ZW|reu=RE|reunion=RE|romania=RO|rou=RO|rus=RU|russia=RU|' +
  'russian federation=RU|rwa=RW|rwanda=RW|rwandese republic=RW|saint barthelemy=BL|' +
  'saint helena ascension and tristan da cunha=SH|saint kitts and nevis=KN|saint lucia=LC|' +
  'saint martin french part=MF|saint pierre and miquelon=PM|saint vincent and the grenadines=VC|samoa=WS|' +
  'san marino=SM|sao tome and principe=ST|sau=SA|saudi arabia=SA|sdn=SD|sen=SN|senegal=SN|serbia=RS|' +
  'seychelles=SC|sgp=SG|sgs=GS|shn=SH|sierra leone=SL|singapore=SG|sint maarten dutch part=SX|sjm=SJ|slb=SB|' +
  'sle=SL|slovak republic=SK|slovakia=SK|slovenia=SI|slv=SV|smr=SM|socialist republic of viet nam=VN|' +
  'solomon islands=SB|som=SO|somalia=SO|south africa=ZA|south georgia and the south sandwich islands=GS|' +
  'south korea=KR|south sudan=SS|soviet union=SU|spain=ES|spm=PM|srb=RS|sri lanka=LK|ssd=SS|state of israel=IL|' +
  'state of kuwait=KW|state of palestine=PS|state of qatar=QA|stp=ST|sudan=SD|sudan south=SS|' +
  'sultanate of oman=OM|sur=SR|suriname=SR|svalbard and jan mayen=SJ|svk=SK|svn=SI|swaziland=SZ|swe=SE|sweden=SE|' +
  'swiss confederation=CH|switzerland=CH|swz=SZ|sxm=SX|syc=SC|syr=SY|syria=SY|syrian arab republic=SY|taiwan=TW|' +
  'taiwan province of china=TW|tajikistan=TJ|tanzania=TZ|tanzania united republic of=TZ|tca=TC|tcd=TD|tgo=TG|' +
  'tha=TH|thailand=TH|the gambia=GM|the state of eritrea=ER|the state of palestine=PS|timor leste=TL|tjk=TJ|' +
  'tkl=TK|tkm=TM|tls=TL|togo=TG|togolese republic=TG|tokelau=TK|ton=TO|tonga=TO|trinidad and tobago=TT|tto=TT|' +
  'tun=TN|tunisia=TN|tur=TR|turkey=TR|turkiye=TR|turkmenistan=TM|turks and caicos islands=TC|tuv=TV|tuvalu=TV|' +
  'twn=TW|tza=TZ|uae=AE|uga=UG|uganda=UG|uk=GB|ukr=UA|ukraine=UA|umi=UM|union of the comoros=KM|' +
  'united arab emirates=AE|united kingdom=GB|united kingdom of great britain and northern ireland=GB|' +
  'united mexican states=MX|united republic of tanzania=TZ|united states=US|' +
  'united states minor outlying islands=UM|united states of america=US|uruguay=UY|ury=UY|usa=US|ussr=SU|uzb=UZ|' +
  'uzbekistan=UZ|vanuatu=VU|vat=VA|vatican=VA|vct=VC|ven=VE|venezuela=VE|venezuela bolivarian republic of=VE|' +
  'vgb=VG|viet nam=VN|vietnam=VN|vir=VI|virgin islands british=VG|virgin islands of the united states=VI|' +
  'virgin islands u s=VI|vnm=VN|vut=VU|wallis and futuna=WF|west bank=PS|western sahara=EH|wlf=WF|wsm=WS|yem=YE|' +
  'yemen=YE|yugoslavia=YU|zaf=ZA|zambia=ZM|zimbabwe=ZW|zmb=ZM|zwe=ZW|' +
  '';

const NAME_TO_CODE: ReadonlyMap<string, string> = new Map(
  TABLE.split('|')
    .filter(Boolean)
    .map((p) => {
      const i = p.lastIndexOf('=');
      return [p.slice(0, i), p.slice(i + 1)] as [string, string];
    }),
);

function normalizeCountryKey(s: string): string {
  return s
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();
}

/** ISO 3166-1 alpha-2 code for a country name or code as written on a list; undefined when unknown. */
export function countryCode(nameOrCode: string | undefined | null): string | undefined {
  if (!nameOrCode) return undefined;
  const raw = nameOrCode.trim();
  if (/^[A-Za-z]{2}$/.test(raw) && isCountryAlpha2(raw.toUpperCase())) return raw.toUpperCase();
  const key = normalizeCountryKey(raw);
  return NAME_TO_CODE.get(key) ?? NAME_TO_CODE.get(key.replace(/^the /, ''));
}

/** ISO 3166-1 alpha-3 codes of an alpha-2 code (plus Germany's ICAO "D"), for matching document issuing states. */
export function alpha3Codes(alpha2: string): string[] {
  const code = alpha2.toUpperCase();
  const out = [...NAME_TO_CODE].filter(([k, v]) => v === code && /^[a-z]{3}$/.test(k)).map(([k]) => k.toUpperCase());
  if (code === 'DE') out.push('D');
  return out;
}
