#!/usr/bin/env python3
"""Writes vplay's ad-pod sample tags (media/pods/*.xml) from one description, so the variants stay alike.

  pod.xml                 a 3-ad pod (sequence 1, 2, 3) and one stand-alone (buffet) ad; ad 2 skippable at 2 s
  pod-wrapper.xml         a wrapper (allowMultipleAds="true") whose target is pod.xml, at http://pods.vplay.test/
                          (play it with --map http://pods.vplay.test/=media)
  pod-failing.xml         pod.xml with ad 2's only media file missing (401), the buffet ad can replace it
  pod-failing-alone.xml   the same without the buffet ad: the pod moves on to ad 3
  pod-simid.xml           a 3-ad pod with SIMID creatives (an InteractiveCreativeFile beside the MediaFile, as the
                          IAB's SIMID examples serve them): ad 1's plays its MediaFile after 409, ad 2's has
                          variableDuration="true" and is refused with 409 by default (SIMID 1.2 §5), ad 3 plays

Each ad's tracking goes to 127.0.0.1:8089 (vplay's sink) under /pod/<ad>/<event>, with [PODSEQUENCE], [ADCOUNT],
[BREAKPOSITION] and [ADPLAYHEAD] in the query. Run: python3 media/pods/make-pods.py
"""
import os

HERE = os.path.dirname(os.path.abspath(__file__))
SINK = "http://127.0.0.1:8089"
EVENTS = ["creativeView", "start", "firstQuartile", "midpoint", "thirdQuartile", "complete", "skip", "pause", "resume",
          "mute", "unmute", "closeLinear"]


def inline(ad_id, sequence, media, skipoffset=None, simid=None):
    q = "seq=[PODSEQUENCE]&count=[ADCOUNT]&bp=[BREAKPOSITION]&pos=[ADPLAYHEAD]"
    seq = f' sequence="{sequence}"' if sequence is not None else ""
    skip = f' skipoffset="{skipoffset}"' if skipoffset else ""
    tracking = "\n".join(
        f'              <Tracking event="{e}"><![CDATA[{SINK}/pod/{ad_id}/{e}?{q}]]></Tracking>' for e in EVENTS)
    tracking += f'\n              <Tracking event="progress" offset="00:00:02"><![CDATA[{SINK}/pod/{ad_id}/progress-2s?{q}]]></Tracking>'
    # A SIMID creative (simid: its variableDuration) beside the MediaFile; vplay never requests it.
    interactive = "" if simid is None else (
        f'\n              <InteractiveCreativeFile type="text/html" apiFramework="SIMID" variableDuration="{simid}">'
        f'<![CDATA[https://creatives.vplay.test/simid/{ad_id}/index.html]]></InteractiveCreativeFile>')
    return f"""  <Ad id="{ad_id}"{seq}>
    <InLine>
      <AdSystem version="1">vplay pod sample</AdSystem>
      <AdTitle>{ad_id}</AdTitle>
      <AdServingId>{ad_id}-serving</AdServingId>
      <Impression><![CDATA[{SINK}/pod/{ad_id}/impression?{q}]]></Impression>
      <Error><![CDATA[{SINK}/pod/{ad_id}/error?code=[ERRORCODE]&{q}]]></Error>
      <Creatives>
        <Creative id="{ad_id}-creative">
          <Linear{skip}>
            <Duration>00:00:05.000</Duration>
            <TrackingEvents>
{tracking}
            </TrackingEvents>
            <MediaFiles>
              <MediaFile delivery="progressive" type="video/mp4" width="320" height="180"><![CDATA[{media}]]></MediaFile>{interactive}
            </MediaFiles>
          </Linear>
        </Creative>
      </Creatives>
    </InLine>
  </Ad>"""


def document(ads, comment):
    body = "\n".join(ads)
    return f"""<?xml version="1.0" encoding="UTF-8"?>
<!-- {comment} Written by media/pods/make-pods.py. -->
<VAST version="4.2">
{body}
</VAST>
"""


CLIP = "../clip-5s-video-only.mp4"
BUFFET = inline("pod-standalone", None, CLIP)


def pod(ad2_media=CLIP, buffet=True):
    ads = [inline("pod-ad-1", 1, CLIP), inline("pod-ad-2", 2, ad2_media, skipoffset="00:00:02"),
           inline("pod-ad-3", 3, CLIP)]
    # Written out of order on purpose: a pod plays by sequence, not document order; the buffet ad comes first.
    ordered = ([BUFFET] if buffet else []) + [ads[2], ads[0], ads[1]]
    return ordered


files = {
    "pod.xml": document(pod(), "A 3-ad pod and one stand-alone ad."),
    "pod-failing.xml": document(pod(ad2_media="missing-media.mp4"),
                                "A 3-ad pod whose ad 2 has no media (401), and a stand-alone ad to replace it."),
    "pod-failing-alone.xml": document(pod(ad2_media="missing-media.mp4", buffet=False),
                                      "A 3-ad pod whose ad 2 has no media (401), and nothing to replace it."),
    "pod-simid.xml": document([inline("pod-ad-1", 1, CLIP, simid="false"), inline("pod-ad-2", 2, CLIP, simid="true"),
                               inline("pod-ad-3", 3, CLIP)],
                              "A 3-ad pod of SIMID creatives: ad 1 plays its MediaFile after 409, ad 2 (variableDuration) is refused with 409 by default."),
    "pod-wrapper.xml": f"""<?xml version="1.0" encoding="UTF-8"?>
<!-- A wrapper that leads to a 3-ad pod (pod.xml, served at http://pods.vplay.test/pods/): its impression and tracking
     fire once for each ad of the pod. Play it mapping http://pods.vplay.test/ to media. Written by make-pods.py. -->
<VAST version="4.2">
  <Ad id="pod-wrapper">
    <Wrapper allowMultipleAds="true">
      <AdSystem>vplay pod wrapper</AdSystem>
      <VASTAdTagURI><![CDATA[http://pods.vplay.test/pods/pod.xml]]></VASTAdTagURI>
      <Impression><![CDATA[{SINK}/wrapper/impression?seq=[PODSEQUENCE]&count=[ADCOUNT]]]></Impression>
      <Error><![CDATA[{SINK}/wrapper/error?code=[ERRORCODE]]]></Error>
      <Creatives>
        <Creative>
          <Linear>
            <TrackingEvents>
              <Tracking event="start"><![CDATA[{SINK}/wrapper/start?seq=[PODSEQUENCE]]]></Tracking>
              <Tracking event="complete"><![CDATA[{SINK}/wrapper/complete?seq=[PODSEQUENCE]]]></Tracking>
            </TrackingEvents>
          </Linear>
        </Creative>
      </Creatives>
    </Wrapper>
  </Ad>
</VAST>
""",
}
for name, text in files.items():
    with open(os.path.join(HERE, name), "w") as out:
        out.write(text)
    print(name)
