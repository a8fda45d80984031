#!/usr/bin/env python3
"""Writes vplay's OpenRTB sample bid responses (media/bids/*.json) around the demo tag, in the shape of the
OpenRTB 2.6 examples ("VAST XML document returned inline": the VAST in the bid's adm).

  bid.json        a BidResponse with one bid: adm (the demo tag, its Impression carrying ${AUCTION_PRICE}), nurl,
                  burl (the price plain and Base64-encoded, ${AUCTION_PRICE:B64}; the billing moment,
                  ${AUCTION_IMP_TS}) and lurl, all to the sink
  bid-pair.json   {"request": …, "response": …}: a rewarded video BidRequest and a response of two seats whose
                  higher bid (4.20, seat "seat-b") wins; the lower bid's notices are the exchange's, never sent

Each notice goes to 127.0.0.1:8089 (vplay's sink) under /rtb/<notice>. The demo's media is one folder up, so
adm's MediaFile is ../clip-10s-360p.mp4 (relative URLs resolve against the bid file). Run:
python3 media/bids/make-bids.py
"""
import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))
SINK = "http://127.0.0.1:8089"


def markup():
    with open(os.path.join(HERE, "..", "demo.xml"), encoding="utf-8") as f:
        vast = f.read()
    vast = vast.replace("CDATA[clip-10s-360p.mp4]]", "CDATA[../clip-10s-360p.mp4]]")
    vast = vast.replace("/impression?ad=vplay-demo-001&", "/impression?ad=vplay-demo-001&price=${AUCTION_PRICE}&")
    assert "../clip-10s-360p.mp4" in vast and "${AUCTION_PRICE}" in vast
    return vast


def bid(bid_id, impid, price, seat_path):
    return {
        "id": bid_id, "impid": impid, "price": price, "adid": "vplay-demo-001", "crid": "demo-creative",
        "adomain": ["example.com"], "mtype": 2,
        "nurl": f"{SINK}/rtb/{seat_path}/win?auction=${{AUCTION_ID}}&imp=${{AUCTION_IMP_ID}}&price=${{AUCTION_PRICE}}&cur=${{AUCTION_CURRENCY}}",
        "burl": f"{SINK}/rtb/{seat_path}/bill?bid=${{AUCTION_BID_ID}}&seat=${{AUCTION_SEAT_ID}}&price=${{AUCTION_PRICE}}&p64=${{AUCTION_PRICE:B64}}&mbr=${{AUCTION_MBR}}&ts=${{AUCTION_IMP_TS}}",
        "lurl": f"{SINK}/rtb/{seat_path}/loss?reason=${{AUCTION_LOSS}}&price=${{AUCTION_PRICE}}",
        "adm": markup(),
    }


def write(name, document):
    with open(os.path.join(HERE, name), "w", encoding="utf-8") as f:
        json.dump(document, f, indent=2)
        f.write("\n")


write("bid.json", {
    "id": "auction-1", "bidid": "response-1", "cur": "USD",
    "seatbid": [{"seat": "seat-a", "bid": [bid("bid-1", "1", 3.5, "a")]}],
})
write("bid-pair.json", {
    "request": {
        "id": "auction-2", "cur": ["USD"], "tmax": 500,
        "imp": [{"id": "1", "rwdd": 1, "bidfloor": 1.0,
                 "video": {"mimes": ["video/mp4"], "w": 390, "h": 844, "minduration": 5, "maxduration": 30, "protocols": [7, 8]}}],
        "app": {"bundle": "com.example.rewarded", "name": "vplay sample"},
        "device": {"os": "iOS", "osv": "17.0", "devicetype": 4},
    },
    "response": {
        "id": "auction-2", "bidid": "response-2", "cur": "USD",
        "seatbid": [{"seat": "seat-a", "bid": [bid("bid-a", "1", 2.75, "a")]},
                    {"seat": "seat-b", "bid": [bid("bid-b", "1", 4.2, "b")]}],
    },
})
