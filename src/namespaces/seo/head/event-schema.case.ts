/**
 * @module namespaces/seo/head/event-schema.case
 * The properties an `Event` must carry for search engines' event results (schema.org Event, with
 * the required set search engines publish: name, startDate and a location with an address or URL),
 * and the shapes of the recommended ones. Returns every problem found.
 */
const ISO_DATE = /^\d{4}-\d\d-\d\d(?:T\d\d:\d\d(?::\d\d)?(?:Z|[+-]\d\d:?\d\d)?)?$/;
const STATUSES = ['EventScheduled', 'EventCancelled', 'EventMovedOnline', 'EventPostponed', 'EventRescheduled'].map((s) => `https://schema.org/${s}`);
const MODES = ['OfflineEventAttendanceMode', 'OnlineEventAttendanceMode', 'MixedEventAttendanceMode'].map((s) => `https://schema.org/${s}`);
const AVAILABILITY = ['InStock', 'SoldOut', 'PreOrder', 'LimitedAvailability', 'OnlineOnly'].map((s) => `https://schema.org/${s}`);

const asList = (v: unknown): any[] => (Array.isArray(v) ? v : v === undefined ? [] : [v]);

export function eventProblems(node: any): string[] {
  const p: string[] = [];
  if (node?.['@type'] !== 'Event') p.push('@type is not Event');
  if (typeof node?.name !== 'string' || node.name === '') p.push('name missing');
  if (typeof node?.startDate !== 'string' || !ISO_DATE.test(node.startDate)) p.push('startDate missing or not ISO 8601');
  if (node?.endDate !== undefined && !ISO_DATE.test(String(node.endDate))) p.push('endDate not ISO 8601');
  const locations = asList(node?.location);
  if (locations.length === 0) p.push('location missing');
  for (const l of locations) {
    if (l['@type'] === 'Place') {
      if (!l.name) p.push('location.name missing');
      if (!l.address || (typeof l.address === 'object' && !l.address.addressLocality && !l.address.streetAddress)) p.push('location.address missing');
    } else if (l['@type'] !== 'VirtualLocation' || !l.url) p.push('location is neither a Place nor a VirtualLocation with url');
  }
  if (node?.eventStatus !== undefined && !STATUSES.includes(node.eventStatus)) p.push('eventStatus not a schema.org EventStatusType');
  if (node?.eventAttendanceMode !== undefined && !MODES.includes(node.eventAttendanceMode)) p.push('eventAttendanceMode not a schema.org EventAttendanceModeEnumeration');
  for (const o of asList(node?.offers)) {
    if (o['@type'] !== 'Offer') p.push('offer @type is not Offer');
    if (o.price === undefined || Number.isNaN(Number(o.price))) p.push('offer price missing or not numeric');
    if (!/^[A-Z]{3}$/.test(String(o.priceCurrency ?? ''))) p.push('offer priceCurrency not an ISO 4217 code');
    if (!AVAILABILITY.includes(o.availability)) p.push('offer availability not a schema.org ItemAvailability');
    if (!o.url) p.push('offer url missing');
  }
  for (const o of asList(node?.organizer)) {
    if (!['Organization', 'Person'].includes(o['@type'])) p.push('organizer is not an Organization or Person');
    if (!o.name) p.push('organizer.name missing');
  }
  return p;
}
