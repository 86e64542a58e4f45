//! Seed 002's hotel tools over a small built-in data set.
//!
//! `search_hotels` never answers a bare empty list: an empty result always
//! carries a `reason` (invalid request, unknown place, no stock), so "no rooms"
//! cannot be read into a request that was simply wrong. It checks the date
//! itself too, because a schema may only *describe* the format. Results carry
//! only what a choice needs; `get_hotel_detail` gives the rest on request.

use std::rc::Rc;

use serde_json::{json, Value};

use super::clock::{civil_from_days, days_from_civil, parse_date};
use super::{define, string_arg, BuiltinTool};
use crate::runtime::Runtime;
use crate::tool::ToolDef;

struct Hotel {
    id: &'static str,
    place: &'static str,
    name: &'static str,
    price_per_night_eur: u32,
    rooms_free: u32,
    address: &'static str,
    rating: f64,
    amenities: &'static [&'static str],
    cancellation: &'static str,
}

const HOTELS: &[Hotel] = &[
    Hotel {
        id: "h_lis_01",
        place: "Lisbon",
        name: "Casa Alfama",
        price_per_night_eur: 96,
        rooms_free: 3,
        address: "Rua dos Remédios 12, 1100-441 Lisboa",
        rating: 4.6,
        amenities: &["wifi", "breakfast", "rooftop terrace", "24h desk"],
        cancellation: "free until 48 hours before check-in",
    },
    Hotel {
        id: "h_lis_02",
        place: "Lisbon",
        name: "Baixa Loft",
        price_per_night_eur: 128,
        rooms_free: 1,
        address: "Rua Augusta 201, 1100-053 Lisboa",
        rating: 4.3,
        amenities: &["wifi", "kitchenette", "air conditioning"],
        cancellation: "non-refundable",
    },
    Hotel {
        id: "h_par_01",
        place: "Paris",
        name: "Hôtel du Marais",
        price_per_night_eur: 184,
        rooms_free: 2,
        address: "14 rue des Archives, 75004 Paris",
        rating: 4.4,
        amenities: &["wifi", "breakfast", "bar", "lift"],
        cancellation: "free until 24 hours before check-in",
    },
    Hotel {
        id: "h_par_02",
        place: "Paris",
        name: "Montmartre Studio",
        price_per_night_eur: 139,
        rooms_free: 4,
        address: "8 rue Lepic, 75018 Paris",
        rating: 4.1,
        amenities: &["wifi", "kitchenette"],
        cancellation: "free until 7 days before check-in",
    },
    Hotel {
        id: "h_kyo_01",
        place: "Kyoto",
        name: "Gion Ryokan",
        price_per_night_eur: 240,
        rooms_free: 0,
        address: "570-120 Gionmachi Minamigawa, Higashiyama-ku, Kyoto",
        rating: 4.8,
        amenities: &["onsen", "kaiseki dinner", "garden"],
        cancellation: "free until 14 days before check-in",
    },
];

fn places() -> Vec<&'static str> {
    let mut places: Vec<&str> = HOTELS.iter().map(|h| h.place).collect();
    places.dedup();
    places
}

fn empty(reason: String) -> Value {
    json!({"hotels": [], "reason": reason})
}

pub(super) fn search_hotels_tool() -> BuiltinTool {
    BuiltinTool::new(
        "search_hotels",
        "Search hotels with free rooms. Returns ids, names and prices only; call get_hotel_detail for one hotel's details. An empty list always comes with a reason.",
        json!({
            "type": "object",
            "properties": {
                "place": {"type": "string", "minLength": 1, "description": "City, e.g. Lisbon"},
                "check_in": {"type": "string", "format": "date", "description": "YYYY-MM-DD, today or later"},
                "nights": {"type": "integer", "minimum": 1, "maximum": 14, "default": 2}
            },
            "required": ["place", "check_in"],
            "additionalProperties": false
        }),
        false,
    )
}

pub fn search_hotels(runtime: Rc<dyn Runtime>) -> ToolDef {
    define(search_hotels_tool(), move |args| {
        let place = string_arg(&args, "place")?;
        let check_in = string_arg(&args, "check_in")?;
        let nights = match args.get("nights") {
            None => 2,
            Some(n) => match n.as_u64() {
                Some(n @ 1..=14) => n,
                _ => {
                    return Ok(empty(format!(
                        "invalid_request: nights must be a whole number from 1 to 14, got {n}"
                    )))
                }
            },
        };
        let Some((y, m, d)) = parse_date(&check_in) else {
            return Ok(empty(format!(
                "invalid_request: check_in must be a date as YYYY-MM-DD, got {}",
                crate::quote::quoted(&check_in)
            )));
        };
        let today = (runtime.unix_ms() / 86_400_000.0).floor() as i64;
        if days_from_civil(y, m, d) < today {
            let (ty, tm, td) = civil_from_days(today);
            return Ok(empty(format!(
                    "invalid_request: check_in {check_in} is in the past (today is {ty:04}-{tm:02}-{td:02})"
                )));
        }
        let in_place: Vec<&Hotel> = HOTELS
            .iter()
            .filter(|h| h.place.eq_ignore_ascii_case(&place))
            .collect();
        if in_place.is_empty() {
            return Ok(empty(format!(
                "unknown_place: no hotels are listed for {}; places: {}",
                crate::quote::quoted(&place),
                places().join(", ")
            )));
        }
        let free: Vec<Value> = in_place
            .iter()
            .filter(|h| h.rooms_free > 0)
            .map(|h| {
                json!({
                    "hotel_id": h.id,
                    "name": h.name,
                    "price_per_night_eur": h.price_per_night_eur,
                    "total_eur": u64::from(h.price_per_night_eur) * nights,
                })
            })
            .collect();
        if free.is_empty() {
            return Ok(empty(format!(
                "no_stock: every hotel in {} is full for {nights} nights from {check_in}",
                in_place[0].place
            )));
        }
        Ok(json!({"hotels": free, "reason": null}))
    })
}

pub(super) fn get_hotel_detail_tool() -> BuiltinTool {
    BuiltinTool::new(
        "get_hotel_detail",
        "One hotel's full details (address, rating, amenities, cancellation policy) by the hotel_id that search_hotels returned.",
        json!({
            "type": "object",
            "properties": {"hotel_id": {"type": "string", "description": "e.g. h_lis_01"}},
            "required": ["hotel_id"],
            "additionalProperties": false
        }),
        false,
    )
}

pub fn get_hotel_detail() -> ToolDef {
    define(get_hotel_detail_tool(), |args| {
        let id = string_arg(&args, "hotel_id")?;
        let hotel = HOTELS.iter().find(|h| h.id == id).ok_or_else(|| {
            format!(
                "no hotel with id {}; use a hotel_id returned by search_hotels",
                crate::quote::quoted(&id)
            )
        })?;
        Ok(json!({
            "hotel_id": hotel.id,
            "name": hotel.name,
            "place": hotel.place,
            "address": hotel.address,
            "rating": hotel.rating,
            "amenities": hotel.amenities,
            "cancellation": hotel.cancellation,
            "price_per_night_eur": hotel.price_per_night_eur,
        }))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tools::testing::{call_now, FixedClock};

    /// 2026-11-29T12:00:00Z
    const NOW: f64 = 1_795_953_600_000.0;

    fn search(args: Value) -> Value {
        call_now(&search_hotels(Rc::new(FixedClock(NOW))), args).unwrap()
    }

    #[test]
    fn results_carry_only_what_a_choice_needs() {
        let found = search(json!({"place": " lisbon ", "check_in": "2027-03-14"}));
        assert_eq!(found["reason"], Value::Null);
        assert_eq!(
            found["hotels"][0],
            json!({"hotel_id": "h_lis_01", "name": "Casa Alfama", "price_per_night_eur": 96, "total_eur": 192})
        );
        assert!(found["hotels"][0].get("amenities").is_none());
    }

    #[test]
    fn an_empty_list_always_says_why() {
        for (args, reason) in [
            (json!({"place": "Lisbon", "check_in": "2024-01-01"}), "invalid_request: check_in 2024-01-01 is in the past (today is 2026-11-29)"),
            (json!({"place": "Lisbon", "check_in": "14/03/2027"}), "invalid_request: check_in must be a date as YYYY-MM-DD, got \"14/03/2027\""),
            (json!({"place": "Lisbon", "check_in": "2027-02-30"}), "invalid_request: check_in must be a date"),
            (json!({"place": "Lisbon", "check_in": "2027-03-14", "nights": 30}), "invalid_request: nights must be a whole number from 1 to 14, got 30"),
            (json!({"place": "Atlantis", "check_in": "2027-03-14"}), "unknown_place: no hotels are listed for \"Atlantis\"; places: Lisbon, Paris, Kyoto"),
            (json!({"place": "Kyoto", "check_in": "2027-03-14", "nights": 3}), "no_stock: every hotel in Kyoto is full for 3 nights from 2027-03-14"),
        ] {
            let result = search(args);
            assert_eq!(result["hotels"], json!([]));
            let got = result["reason"].as_str().unwrap();
            assert!(got.starts_with(reason), "{got:?} should start with {reason:?}");
        }
        // Today is not in the past.
        assert_eq!(
            search(json!({"place": "Paris", "check_in": "2026-11-29"}))["reason"],
            Value::Null
        );
    }

    #[test]
    fn details_on_request() {
        let detail = call_now(&get_hotel_detail(), json!({"hotel_id": "h_par_01"})).unwrap();
        assert_eq!(
            detail["cancellation"],
            "free until 24 hours before check-in"
        );
        let unknown = call_now(&get_hotel_detail(), json!({"hotel_id": "h_x"})).unwrap_err();
        assert!(unknown.contains("use a hotel_id returned by search_hotels"));
    }
}
