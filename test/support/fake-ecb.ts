/**
 * A fake of the ECB's rate server on loopback for tests: it serves the daily reference-rate file
 * in the ECB's own format (eurofxref-daily.xml: the gesmes envelope, one dated Cube, a Cube per
 * currency) with the figures of the day Velvet ships (ecb/euro-reference-rates.csv), or whatever
 * body and status a test sets, and counts the requests.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";

/** The daily file as the ECB writes it, for `date`, with the shipped day's rates. */
export function ecbDailyXml(date = "2025-05-09"): string {
  return DAILY.replace("{DATE}", date);
}

const DAILY = `<?xml version="1.0" encoding="UTF-8"?>
<gesmes:Envelope xmlns:gesmes="http://www.gesmes.org/xml/2002-08-01" xmlns="http://www.ecb.int/vocabulary/2002-08-01/eurofxref">
	<gesmes:subject>Reference rates</gesmes:subject>
	<gesmes:Sender>
		<gesmes:name>European Central Bank</gesmes:name>
	</gesmes:Sender>
	<Cube>
		<Cube time='{DATE}'>
			<Cube currency='USD' rate='1.1252'/>
			<Cube currency='JPY' rate='163.36'/>
			<Cube currency='BGN' rate='1.9558'/>
			<Cube currency='CZK' rate='24.946'/>
			<Cube currency='DKK' rate='7.4604'/>
			<Cube currency='GBP' rate='0.8477'/>
			<Cube currency='HUF' rate='404.9'/>
			<Cube currency='PLN' rate='4.2393'/>
			<Cube currency='RON' rate='5.1181'/>
			<Cube currency='SEK' rate='10.92'/>
			<Cube currency='CHF' rate='0.9353'/>
			<Cube currency='ISK' rate='146.9'/>
			<Cube currency='NOK' rate='11.6725'/>
			<Cube currency='TRY' rate='43.5999'/>
			<Cube currency='AUD' rate='1.7572'/>
			<Cube currency='BRL' rate='6.3647'/>
			<Cube currency='CAD' rate='1.5658'/>
			<Cube currency='CNY' rate='8.147'/>
			<Cube currency='HKD' rate='8.7519'/>
			<Cube currency='IDR' rate='18606.59'/>
			<Cube currency='ILS' rate='3.9928'/>
			<Cube currency='INR' rate='96.0755'/>
			<Cube currency='KRW' rate='1575.72'/>
			<Cube currency='MXN' rate='21.9473'/>
			<Cube currency='MYR' rate='4.835'/>
			<Cube currency='NZD' rate='1.9095'/>
			<Cube currency='PHP' rate='62.413'/>
			<Cube currency='SGD' rate='1.46'/>
			<Cube currency='THB' rate='37.132'/>
			<Cube currency='ZAR' rate='20.4835'/>
		</Cube>
	</Cube>
</gesmes:Envelope>
`;

export interface FakeEcb {
  url: string;
  requests: number;
  answer(status: number, body: string): void;
  close(): Promise<void>;
}

export async function startFakeEcb(): Promise<FakeEcb> {
  let status = 200;
  let body = ecbDailyXml();
  const fake = {
    url: "",
    requests: 0,
    answer(s: number, b: string) {
      status = s;
      body = b;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  const server = http.createServer((req, res) => {
    fake.requests++;
    res.writeHead(status, { "content-type": "text/xml" });
    res.end(req.method === "HEAD" ? undefined : body);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  fake.url = `http://127.0.0.1:${port}/stats/eurofxref/eurofxref-daily.xml`;
  return fake;
}
